/**
 * `@sweatpants/agent-runtime`: what an agent is written with, for the authors of `libs/agents/*`.
 * Agents, tools, modes and templates, the primitives (sample, elicit, notify, log) and questions,
 * protocols, middleware and the contexts a turn runs in, the model's messages as a turn sees them,
 * the compaction plugins, and `exposeOverApi` and `exposeOverMcp`.
 *
 * The other audiences have entry points of their own, so an agent never reaches into a host:
 * `@sweatpants/agent-runtime/host` is for programs that run agents (the Runner, the conversation
 * port, the catalog), `@sweatpants/agent-runtime/offline` for the offline model and the helpers an
 * agent's offline rules are written with, `@sweatpants/agent-runtime/testing` for specs.
 */
export * from './agent-definition';
// Seed 004's core names that are effection's or the domain's: `call` wraps a promise as an
// operation (the seed's browser protocol), `createElicit` declares a question type (libs/domain).
export { call } from 'effection';
export { createElicit, type ElicitSpec } from '@sweatpants/domain';
export * from './ask';
export * from './ask-for';
// The rest of the compaction policy (summaryPolicy, summaryInstructions) is the compaction job's,
// in ./host.
export {
  CompactionPolicy,
  compactAfter,
  compactAtTokens,
  DEFAULT_COMPACT_AFTER,
  DEFAULT_COMPACT_AT_TOKENS,
  DEFAULT_SUMMARY_INSTRUCTIONS,
  nextRequestTokens,
  summariseAs,
  type CompactionPolicyApi,
  type SummaryPolicy,
} from './compaction-policy';
export * from './context';
export * from './create-agent';
export * from './fork';
export * from './expose-over-api';
export * from './elicit';
export * from './expose-over-mcp';
// summaryStates and MODE_STATE_KEY are what the compaction job writes on a summary: ./host.
export { historyOf, modeReducer, modeStateOf, pairToolUses, sinceSummary } from './history';
// The model's vocabulary as a turn reads and writes it; the port a host wires (Model,
// CompleteOptions, PhotoBytes) is in ./host.
export {
  imageOf,
  INTERPRET_QUESTION_LINE,
  INTERPRET_TOOL,
  modelIsBusy,
  spendRefused,
  RESPOND_TOOL,
  type ContentBlock,
  type ImageBlock,
  type ModelError,
  type ModelErrorCode,
  type ModelMessage,
  type ModelReply,
  type ModelRequest,
  type ModelUsage,
  type TextBlock,
  type ToolResultBlock,
  type ToolSpec,
  type ToolUseBlock,
} from './model';
// Consuming MCP servers' tools (seed 004's MCP integration); the connection itself is internal.
export {
  DEFAULT_MCP_TIMEOUT_MS,
  HttpServerConfigSchema,
  McpServerConfigSchema,
  parseMcpServers,
  StdioServerConfigSchema,
  type HttpServerConfig,
  type McpServerConfig,
  type StdioServerConfig,
} from './mcp/mcp-server-config';
export { mcpToolName } from './mcp/mcp-tool';
export { useMcpServers, type McpServersPlugin } from './mcp/use-mcp-servers';
export * from './off-script';
export * from './offered-tools';
export * from './primitives';
// An agent that hears "stop" asks nothing more this turn (the questions it waits on are set aside).
export { QuestionsAsked, setAsideAsked, stopAsking } from './waiting-questions';
export * from './protocol';
export * from './sample';
export { SET_QUESTION_ASIDE } from './set-question-aside';
export {
  WAITING_QUESTION_LINE,
  waitingQuestionIn,
  waitingQuestionNote,
  type WaitingQuestion,
} from './aside-note';
export * from './template';
export * from './tool';
export * from './tool-dispatch';
export * from './turn';
