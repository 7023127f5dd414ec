/** `@sweatpants/agent-runtime/testing`: support for specs of the runtime and of agents. */
export * from './test-agent';
