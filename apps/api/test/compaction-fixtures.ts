import { randomUUID } from 'node:crypto';
import type { ModelReply, ModelRequest } from '@sweatpants/agent-runtime';
import type { Model } from '@sweatpants/agent-runtime/host';
import { ok, type Result, type TreeNode } from '@sweatpants/domain';
import type { TreeStore } from '@sweatpants/tree-store';

/** A conversation with `turns` finished turns (a user message and a reply each); returns its id and HEAD. */
export async function conversationWithTurns(
  store: TreeStore,
  turns: number,
): Promise<{ conversationId: string; ownerId: string; head: string }> {
  const ownerId = randomUUID();
  const { conversation } = await store.createConversation({ ownerId, agent: 'tidying', title: 'compaction' });
  let head = '';
  for (let i = 1; i <= turns; i++) head = await talk(store, conversation.id, ownerId, `message ${i}`);
  return { conversationId: conversation.id, ownerId, head };
}

/** One more turn at HEAD, as the runner writes it: the user's message, then the agent's reply. */
export async function talk(
  store: TreeStore,
  conversationId: string,
  ownerId: string,
  text: string,
): Promise<string> {
  const appended = await store.append({
    conversationId,
    nodes: [
      { kind: 'user', payload: { text }, authorId: ownerId },
      { kind: 'assistant', payload: { text: `reply to ${text}` }, authorId: 'agent:tidying' },
    ],
    actorId: ownerId,
  });
  if (!appended.ok) throw new Error(appended.error.message);
  return appended.value.head;
}

/** The text of each node of a path, the way a reader compares two paths. */
export const texts = (path: readonly TreeNode[]): string[] =>
  path.flatMap((n) =>
    typeof n.payload['text'] === 'string' && n.kind !== 'summary' ? [n.payload['text']] : [],
  );

export async function pathOf(store: TreeStore, conversationId: string, ref = 'HEAD'): Promise<TreeNode[]> {
  const path = await store.path(conversationId, ref);
  if (!path.ok) throw new Error(path.error.message);
  return path.value;
}

/** Every summary node of the conversation's tree, on HEAD's path or not. */
export async function summariesIn(store: TreeStore, conversationId: string): Promise<TreeNode[]> {
  const page = await store.tree(conversationId, { limit: 500 });
  if (!page.ok) throw new Error(page.error.message);
  return page.value.nodes.filter((n) => n.kind === 'summary');
}

/**
 * A model that answers a summary only once the test lets it: the edge of the world held still, so a
 * test can act while a job is mid-flight without racing a timer.
 */
export class HeldModel implements Model {
  readonly kind = 'claude';
  readonly name = 'held';
  readonly requests: ModelRequest[] = [];
  private release: (() => void) | undefined;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  private called: (() => void) | undefined;
  /** resolves when the first request arrives */
  readonly asked = new Promise<void>((resolve) => (this.called = resolve));

  constructor(private readonly text: string) {}

  answer(): void {
    this.release?.();
  }

  async complete(request: ModelRequest): Promise<Result<ModelReply, never>> {
    this.requests.push(request);
    this.called?.();
    await this.released;
    // as Claude answers a forced tool: through it (a summary is asked for through record_summary)
    const forced = request.toolChoice;
    return ok({
      content: forced
        ? [
            {
              type: 'tool_use',
              id: `toolu_held_${this.requests.length}`,
              name: forced,
              input: { summary: this.text },
            },
          ]
        : [{ type: 'text', text: this.text }],
      stopReason: forced ? 'tool_use' : 'end_turn',
      usage: { inputTokens: 1, outputTokens: 1 },
      model: this.name,
    });
  }
}
