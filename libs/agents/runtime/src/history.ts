import { foldPath, summaryStateKey, type Json, type StateReducer, type TreeNode } from '@sweatpants/domain';
import { imageOf, RESPOND_TOOL, type ContentBlock, type ModelMessage, type ToolUseBlock } from './model';
import { modeOf, type AgentDefinition } from './agent-definition';
import { replyOf } from './primitives';
import { resultText, type ToolResultPayload } from './tool-dispatch';

/**
 * The model's view of a path: user and assistant messages, tool calls with their results,
 * summaries in place of the ranges they cover. Elicits and notices are the user interface's
 * business: what a question returned reaches the model as its tool's result. The runner's path
 * begins at the latest summaries (Runner.open): each summary's text stands for its range.
 *
 * @example
 * const sampled = yield* sample({
 *   system: mode.render(state.data),
 *   messages: historyOf(run.journal.path()),
 *   tools: tools.map((t) => t.spec),
 * });
 */
export function historyOf(path: readonly TreeNode[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const push = (role: ModelMessage['role'], content: ContentBlock[]) => {
    const last = messages.at(-1);
    // The Messages API wants turns to alternate; consecutive blocks of one side form one turn.
    if (last?.role === role) {
      last.content.push(...content);
      // ...and a user turn's tool results before its text (an answer typed to a tool's question
      // is recorded before the tool's result).
      if (role === 'user') last.content.sort((a, b) => rank(a) - rank(b));
    } else messages.push({ role, content });
  };
  const answered = new Set(
    path.filter((n) => n.kind === 'tool_result').map((n) => String(n.payload['toolUseId'])),
  );
  // Calls the agent made itself, with no model reply asking for them (a card readied while the
  // words were read): their results are the agent's business, and the API refuses a tool_result
  // without its tool_use.
  const asked = new Set(
    path.flatMap((n) =>
      n.kind === 'assistant'
        ? replyOf(n as TreeNode<'assistant'>).content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
        : [],
    ),
  );
  const retried = new Set(
    path.flatMap((n, i) =>
      n.kind === 'event' && n.payload['type'] === 'sample-retry' ? [path[i - 1]?.id] : [],
    ),
  );

  for (const node of path) {
    switch (node.kind) {
      case 'user': {
        const p = node.payload as TreeNode<'user'>['payload'];
        const photos: ContentBlock[] = (p.photos ?? []).map(imageOf);
        push('user', [...photos, { type: 'text', text: p.text }]);
        break;
      }
      case 'assistant': {
        // A retried reply was replaced; a side call of the runtime's (`purpose`) is not the chat.
        if (retried.has(node.id) || node.payload['purpose'] !== undefined) break;
        // A call cut off before its result (a cancel mid-tool) is dropped: the API refuses a
        // tool_use without its result.
        const blocks = replyOf(node as TreeNode<'assistant'>).content.filter(
          (b) => b.type !== 'tool_use' || answered.has(b.id),
        );
        if (blocks.length > 0) push('assistant', blocks);
        break;
      }
      case 'tool_result': {
        const p = node.payload as unknown as ToolResultPayload;
        if (!asked.has(p.toolUseId)) break;
        const images = (p.photos ?? []).map(imageOf);
        push('user', [
          {
            type: 'tool_result',
            toolUseId: p.toolUseId,
            content: resultText(p.outcome),
            isError: p.outcome.kind === 'error',
            ...(images.length > 0 ? { images } : {}),
          },
        ]);
        break;
      }
      case 'summary':
        push('user', [
          { type: 'text', text: `(Summary of the conversation so far) ${String(node.payload['text'])}` },
        ]);
        break;
      case 'response':
        if (node.payload['action'] === 'other')
          push('user', [
            { type: 'text', text: String((node.payload['content'] as { text?: string })?.text ?? '') },
          ]);
        break;
      case 'cancel':
        push('user', [{ type: 'text', text: '(The user stopped that reply.)' }]);
        break;
      case 'root':
      case 'elicit':
      case 'notify':
      case 'tool_call':
      case 'mode':
      case 'event':
        break;
    }
  }
  if (messages[0]?.role === 'assistant')
    messages.unshift({ role: 'user', content: [{ type: 'text', text: '(conversation start)' }] });
  return pairToolUses(messages);
}

/**
 * The history with each tool call right before its result, as the Messages API wants it. A tool
 * whose question had a side quest was called, then the user's words and the reply to them came,
 * and only then its result: the call moves to the end of that reply, which is when the question
 * was asked again. Calls answered at once are left where they are.
 *
 * @example
 * const paired = pairToolUses(messages); // `messages` itself when nothing had to move
 * pairToolUses(paired); // equal to `paired`: pairing twice changes nothing
 */
export function pairToolUses(messages: readonly ModelMessage[]): ModelMessage[] {
  // The usual history needs nothing moved: it is returned as it is, without a copy per model call.
  if (messages.every((m, i) => m.role !== 'assistant' || pairedInNext(m, messages[i + 1])))
    return messages as ModelMessage[];
  const out: ModelMessage[] = messages.map((m) => ({ role: m.role, content: [...m.content] }));
  const answers = (m: ModelMessage | undefined, id: string) =>
    m?.role === 'user' && m.content.some((b) => b.type === 'tool_result' && b.toolUseId === id);
  out.forEach((message, i) => {
    if (message.role !== 'assistant') return;
    const late = message.content.filter(
      (b): b is ToolUseBlock => b.type === 'tool_use' && !answers(out[i + 1], b.id),
    );
    for (const use of late) {
      const at = out.findIndex((m, j) => j > i + 1 && answers(m, use.id));
      const before = out[at - 1];
      if (at < 0 || before?.role !== 'assistant') continue;
      message.content = message.content.filter((b) => b !== use);
      before.content.push(use);
    }
  });
  const merged: ModelMessage[] = [];
  for (const message of out) {
    if (message.content.length === 0) continue;
    const last = merged.at(-1);
    if (last?.role !== message.role) merged.push(message);
    else {
      last.content.push(...message.content);
      if (last.role === 'user') last.content.sort((a, b) => rank(a) - rank(b));
    }
  }
  return merged;
}

/**
 * The agent's mode at the end of a path, as a fold: a `mode` node switches mode and data, a
 * `respond` tool call updates the data with the mode's structured output. Rewinding the path
 * therefore rewinds the mode exactly.
 *
 * @example
 * const { mode: modeName, data } = modeStateOf(agent, run.journal.path());
 * const tools = modeOf(agent, modeName).tools(data);
 */
export function modeStateOf(agent: AgentDefinition, path: readonly TreeNode[]): { mode: string; data: Json } {
  let state = { ...agent.initial };
  for (const node of path) {
    const saved = node.kind === 'summary' ? summarisedMode(node) : undefined;
    if (saved) state = saved;
    else if (node.kind === 'mode')
      state = { mode: String(node.payload['to']), data: (node.payload['data'] ?? null) as Json };
    else if (node.kind === 'tool_result' && node.payload['name'] === RESPOND_TOOL) {
      // Only an output that passed the mode's schema counts: a refused one came back as an error.
      const outcome = (node.payload as unknown as ToolResultPayload).outcome;
      const mode = modeOf(agent, state.mode);
      if (outcome.kind === 'success' && mode.output)
        state = { mode: state.mode, data: mode.output.update(state.data, outcome.value) };
    }
  }
  return state;
}

/**
 * The mode fold as a StateReducer, for an agent whose state is just its mode: `mode` nodes switch
 * it. (A `respond` output needs the agent's modes to apply; `modeStateOf` does that.)
 *
 * @example
 * export const Donations = createAgent(tools, {
 *   name: 'donations',
 *   modes: [helpingMode],
 *   initial: INITIAL,
 *   state: modeReducer('donations', INITIAL),
 *   fallbackReply: () => 'I could not think that through just now.',
 * });
 */
export function modeReducer(
  name: string,
  initial: { mode: string; data: Json },
): StateReducer<{ mode: string; data: Json }> {
  return {
    name,
    version: 1,
    initial,
    apply: (state, node) =>
      node.kind === 'mode'
        ? { mode: String(node.payload['to']), data: (node.payload['data'] ?? null) as Json }
        : state,
  };
}

/** The key under which a summary keeps the mode at the end of the range it covers. */
export const MODE_STATE_KEY = 'mode';

function summarisedMode(node: TreeNode): { mode: string; data: Json } | undefined {
  const saved = (node.payload as { states?: { [key: string]: Json } }).states?.[MODE_STATE_KEY];
  if (!saved || typeof saved !== 'object' || Array.isArray(saved) || typeof saved['mode'] !== 'string')
    return undefined;
  return { mode: saved['mode'], data: saved['data'] ?? null };
}

/**
 * What a summary of `covered` (the path from the root up to the range's last node) must keep so
 * that folds passing it see what folding the range would have: the agent's state and its mode.
 *
 * @example
 * const covered = path.slice(0, path.findIndex((n) => n.id === range.toId) + 1);
 * const states = summaryStates(agent, covered); // kept on the summary node the squash writes
 */
export function summaryStates(agent: AgentDefinition, covered: readonly TreeNode[]): { [key: string]: Json } {
  return {
    [summaryStateKey(agent.state)]: foldPath(agent.state, covered),
    [MODE_STATE_KEY]: modeStateOf(agent, covered),
  };
}

/** Whether every tool call of `message` has its result in `next`. */
function pairedInNext(message: ModelMessage, next: ModelMessage | undefined): boolean {
  return message.content.every(
    (b) =>
      b.type !== 'tool_use' ||
      (next?.role === 'user' && next.content.some((r) => r.type === 'tool_result' && r.toolUseId === b.id)),
  );
}

function rank(block: ContentBlock): number {
  return block.type === 'tool_result' ? 0 : 1;
}

/**
 * Nodes since the last summary on the path (since the root when there is none): what compaction
 * would shrink, and what a compaction policy measures.
 *
 * @example
 * yield* CompactionPolicy.around({ *due([path]) { return sinceSummary(path) > nodes; } });
 */
export function sinceSummary(path: readonly TreeNode[]): number {
  const at = path.findLastIndex((n) => n.kind === 'summary');
  return path.length - 1 - Math.max(at, 0);
}
