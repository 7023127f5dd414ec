export * from './claude-config';
export { ClaudeModel } from './claude-model';
