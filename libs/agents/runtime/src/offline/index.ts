/**
 * `@sweatpants/agent-runtime/offline`: the offline model, which answers by each agent's rules when
 * there is no API key, and what those rules are written with (their context, the default rules,
 * keyword and input helpers, the JSON-schema check). An agent's `offline-rules.ts` imports it; a
 * host imports it for `OfflineModel`.
 */
export { OfflineModel, type OfflineAnswer } from './offline-model';
export type { OfflineReply, OfflineRule, OfflineToolCall } from './offline-rule';
export {
  createOfflineContext,
  type OfflineContext,
  type OfflinePhotos,
  type OfflineToolResult,
} from './offline-context';
export {
  acknowledgeToolResults,
  cannedReply,
  DEFAULT_OFFLINE_RULES,
  OFFLINE_NOTICE,
  respondFromKeywords,
} from './default-rules';
export { inputFor, type InputHints, valueFor } from './input-synthesis';
export { formatIssues, type JsonSchema, type SchemaIssue, validateJson } from './json-schema';
export { asksSomething, COUNTED, keywords, mentions, REFUSES, SOMEONE_ELSE, stem, THE_REST } from './text';
export { optionNamedIn } from './option-words';
export { setQuestionAsideRule, waitingQuestionRule } from './set-aside-rule';
export { questionToRead, type QuestionToRead } from './off-script-rule';
