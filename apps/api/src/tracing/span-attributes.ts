/**
 * OpenTelemetry's GenAI semantic conventions, the attribute names this api sets. Spelled here
 * rather than imported: `@opentelemetry/semantic-conventions/incubating` still has them, but
 * deprecated, as the conventions moved to a repository of their own (semantic-conventions-genai).
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  conversationId: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  requestMaxTokens: 'gen_ai.request.max_tokens',
  responseModel: 'gen_ai.response.model',
  finishReasons: 'gen_ai.response.finish_reasons',
  /** every input token, the cached ones included (the conventions' note) */
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  cacheReadTokens: 'gen_ai.usage.cache_read.input_tokens',
  cacheCreationTokens: 'gen_ai.usage.cache_creation.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolType: 'gen_ai.tool.type',
  systemInstructions: 'gen_ai.system_instructions',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
} as const;

/** The api's own attributes, beside the conventions'. */
export const SWEATPANTS = {
  /** the conversation command a span carried out (`send`, `respond`, `rewind`…) */
  command: 'sweatpants.command',
  /** the socket event that carried a command */
  socketEvent: 'sweatpants.socket.event',
  elicitId: 'sweatpants.elicit.id',
  elicitType: 'sweatpants.elicit.type',
  /** how a wait for a person ended: `answered`, or why it was withdrawn */
  elicitOutcome: 'sweatpants.elicit.outcome',
  nodeCount: 'sweatpants.append.nodes',
  nodeKinds: 'sweatpants.append.kinds',
  jobName: 'sweatpants.job.name',
  jobId: 'sweatpants.job.id',
} as const;
