import type { Readable, Writable } from 'node:stream';
import { action, call, createQueue, race, type Operation } from 'effection';

import type { ElicitRequest, ElicitResponse, TreeNode } from '@sweatpants/domain';
import type { AgentDefinition, LogSink } from '@sweatpants/agent-runtime';
import { type Model, type Outbox, Runner, InMemoryConversationPort } from '@sweatpants/agent-runtime/host';

import { CliElicits } from './cli-elicits';

export interface ChatSessionOptions {
  agent: AgentDefinition;
  model: Model;
  input: Readable;
  output: Writable;
  /** the user at the terminal, author of their messages and answers; `user:cli` by default */
  userId?: string;
  /** where the agent's `log` goes; warnings and errors are printed by default */
  logs?: LogSink;
  /** the per-conversation services the agent's tools need (the Runner's `provide`) */
  provide?: () => Operation<void>;
}

const CONVERSATION_ID = 'cli';

/**
 * A conversation with `agent` in a terminal, for walking its flows by hand: the runner on the
 * in-memory port, its elicits asked with CliElicits and answered through `Runner.respond`, as the
 * browser answers over the socket (so answers are checked and idempotent the same way). Replies
 * stream as they are written; notices, tool calls and mode switches show as indented lines.
 * Ends when the chat prompt is left (`/cancel`, `/decline`, end of input); returns the path.
 */
export function* runChatSession(options: ChatSessionOptions): Operation<TreeNode[]> {
  const { agent, model, output } = options;
  const userId = options.userId ?? 'user:cli';
  const port = new InMemoryConversationPort();
  port.create(CONVERSATION_ID);
  const cli = new CliElicits({ input: options.input, output });
  const requests = createQueue<ElicitRequest, never>();
  const withdrawn = new Set<string>();
  const onWithdrawn = new Map<string, () => void>();
  const display = replyDisplay(output);

  const outbox: Outbox = {
    nodes: (nodes) => nodes.forEach(display.node),
    status: () => undefined,
    elicit: (request) => requests.add(request),
    withdrawn: (elicitId) => {
      withdrawn.add(elicitId);
      onWithdrawn.get(elicitId)?.();
    },
    notify: ({ message, progress, total }) =>
      display.line(
        `  … ${message}${progress === undefined ? '' : ` (${progress}${total ? `/${total}` : ''})`}`,
      ),
    token: (at, text) => display.token(at, text),
    // The terminal reads the next line only at the chat prompt, so nothing is ever queued here.
    queue: () => undefined,
  };
  const logs: LogSink = options.logs ?? {
    write: (level, message, fields) => {
      if (level === 'warn' || level === 'error')
        display.line(`  [${level}] ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
    },
  };

  const runner = yield* call(() =>
    Runner.open({
      conversationId: CONVERSATION_ID,
      agent,
      port,
      model,
      outbox,
      logs,
      ...(options.provide ? { provide: options.provide } : {}),
    }),
  );
  const untilWithdrawn = (elicitId: string): Operation<null> =>
    action<null>((resolve) => {
      if (withdrawn.has(elicitId)) resolve(null);
      else onWithdrawn.set(elicitId, () => resolve(null));
      return () => onWithdrawn.delete(elicitId);
    });

  try {
    display.line(`${agent.name}, on the ${model.kind} model. Leave the chat prompt with /cancel.`);
    // Opening sends nothing; what the conversation waits on is asked first.
    for (const request of runner.pending()) requests.add(request);
    // Delivery is at least once: a request answered (other than off-script) is not asked again.
    const answered = new Map<string, ElicitResponse['action']>();
    for (;;) {
      const { value: request } = yield* requests.next();
      const before = answered.get(request.elicitId);
      if (withdrawn.has(request.elicitId) || (before !== undefined && before !== 'other')) continue;
      const response = yield* race([cli.ask(request), untilWithdrawn(request.elicitId)]);
      if (response === null) continue;
      if (request.type === 'chat' && (response.action === 'cancel' || response.action === 'decline')) break;
      const recorded = yield* call(() => runner.respond({ elicitId: request.elicitId, ...response }, userId));
      if (recorded.ok) answered.set(request.elicitId, response.action);
      else display.line(`  (${recorded.error.message})`);
    }
    const path = yield* call(() => port.path(CONVERSATION_ID));
    return path.ok ? path.value : [];
  } finally {
    cli.close();
    yield* call(() => runner.close());
  }
}

/**
 * Prints replies: streamed text as it comes, a whole reply when nothing streamed. A turn may stream
 * several replies before their nodes are stored (the offline model's are stored together at the
 * next durable point), so each stream is known by the node its reply follows (the token's `at`,
 * the assistant node's parent), and a stored reply that was streamed is not printed again.
 */
function replyDisplay(output: Writable) {
  let streamingAt: string | null = null;
  const streamed = new Set<string>();
  const endStream = (): void => {
    if (streamingAt !== null) output.write('\n');
    streamingAt = null;
  };
  const line = (text: string): void => {
    endStream();
    output.write(`${text}\n`);
  };
  return {
    line,
    token(at: string, text: string): void {
      if (streamingAt !== at) {
        endStream();
        output.write('agent> ');
        streamingAt = at;
        streamed.add(at);
      }
      output.write(text);
    },
    node(node: TreeNode): void {
      const payload = node.payload as { [key: string]: unknown };
      switch (node.kind) {
        case 'assistant': {
          const text = typeof payload['text'] === 'string' ? payload['text'] : '';
          if (node.parentId !== null && streamed.delete(node.parentId)) {
            if (streamingAt === node.parentId) endStream();
          } else if (text !== '') line(`agent> ${text}`);
          return;
        }
        case 'tool_call':
          return line(`  (tool: ${String(payload['name'])})`);
        case 'mode':
          return line(`  (mode: ${String(payload['from'])} → ${String(payload['to'])})`);
        default:
          return;
      }
    },
  };
}
