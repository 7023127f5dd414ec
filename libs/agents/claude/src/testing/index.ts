export * from './fake-anthropic-server';
export type { FakeTiming } from './fake-anthropic-clock';
export { CACHE_TTL_MS, DEFAULT_MIN_CACHE_TOKENS, estimateTokens } from './fake-anthropic-cache';
export type { FakeBlock, FakeStep, FakeUsage } from './fake-anthropic-steps';
export * from './runner-harness';
export * from './as-the-model-reads';
export * from './offline-responder';
export * from './read-body';
