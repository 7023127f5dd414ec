export * from './model/model';
export * from './runtime';
export * from './storage/conversation-port';
export { InMemoryConversationPort } from './storage/in-memory-port';
export { PendingElicits, type AnswerError } from './runtime/pending-elicits';
export * from './model/claude';
export * from './model/offline';
export * from './agents';
