export * from './test-agent';
