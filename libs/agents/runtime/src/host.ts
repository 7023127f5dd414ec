/**
 * `@sweatpants/agent-runtime/host`: what a program needs to run agents, for the api, the worker,
 * the terminal chat, the product's registry, benches and specs that drive a conversation. The
 * Runner and what it is opened with (the conversation port, the model, an outbox), the journal's
 * errors, the catalog of agents a program runs, the pending questions and the elicit protocol a
 * host answers them through, and what the compaction job asks of an agent.
 *
 * Agents themselves import `@sweatpants/agent-runtime` (a host needs it too, for AgentDefinition
 * and the model's messages) and `@sweatpants/agent-runtime/offline` for the offline model.
 */
export { AgentCatalog, type AgentRegistration, type McpAgent } from './agent-catalog';
export { chatElicitId } from './answer-records';
export { summaryInstructions, summaryPolicy } from './compaction-policy';
export * from './elicit-protocol';
export { MODE_STATE_KEY, summaryStates } from './history';
export { HeadMovedError, Journal, ReplayDivergenceError } from './journal';
export type { CompleteOptions, Model, PhotoBytes } from './model';
export * from './outbox';
export { PendingElicits, type AnswerError } from './pending-elicits';
export * from './runner';
export { PhotoStoreContext, providePhotoStore, type PhotoStore } from './photo-store';
export type { ConversationPort, PortError, QueuedMessages } from '@sweatpants/domain';
export { InMemoryConversationPort } from './storage/in-memory-port';
