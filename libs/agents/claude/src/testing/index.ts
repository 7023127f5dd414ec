export * from './fake-anthropic-server';
export type { FakeBlock, FakeStep, FakeUsage } from './fake-anthropic-steps';
export * from './runner-harness';
