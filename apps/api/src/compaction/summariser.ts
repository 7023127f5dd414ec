import type { TreeNode } from '@sweatpants/domain';
import { historyOf, type SummaryPolicy } from '@sweatpants/agent-runtime';
import type { Model } from '@sweatpants/agent-runtime/host';

/** Writes the text of a summary node for a range of a conversation's path. */
export interface Summariser {
  readonly kind: 'claude' | 'offline';
  /** `policy`: what to keep and which model writes it, as the conversation's agent says (summaryPolicy) */
  summarise(nodes: readonly TreeNode[], signal: AbortSignal, policy: SummaryPolicy): Promise<string>;
}

/** A summary written by the conversation's model (Claude when ANTHROPIC_API_KEY is set). */
export class ModelSummariser implements Summariser {
  constructor(private readonly model: Model) {}

  get kind(): Model['kind'] {
    return this.model.kind;
  }

  async summarise(nodes: readonly TreeNode[], signal: AbortSignal, policy: SummaryPolicy): Promise<string> {
    const messages = historyOf(nodes);
    // The Messages API wants the last turn to be the user's: the instruction goes there.
    const ask = { type: 'text' as const, text: 'Summarise the conversation above.' };
    const last = messages.at(-1);
    if (last?.role === 'user') last.content.push(ask);
    else messages.push({ role: 'user', content: [ask] });
    const request = {
      system: policy.instructions,
      messages,
      tools: [],
      ...(policy.model ? { model: policy.model } : {}),
    };
    const reply = await this.model.complete(request, { signal });
    // A failed model call fails the job, which BullMQ retries with backoff.
    if (!reply.ok) throw new Error(`the model could not summarise: ${reply.error.message}`);
    const text = reply.value.content
      .flatMap((b) => (b.type === 'text' ? [b.text] : []))
      .join('')
      .trim();
    if (text === '') throw new Error('the model answered an empty summary');
    return text;
  }
}

const QUOTE_CHARS = 80;
const QUOTED_MESSAGES = 6;

/**
 * The offline model's summary: deterministic, and honest about being one. It says what it covers
 * (how many nodes of which kinds, over which time) and quotes the user's first and latest messages.
 */
export class OfflineSummariser implements Summariser {
  readonly kind = 'offline';

  async summarise(nodes: readonly TreeNode[]): Promise<string> {
    const counts = new Map<string, number>();
    for (const node of nodes) counts.set(node.kind, (counts.get(node.kind) ?? 0) + 1);
    const kinds = [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
    const first = nodes[0]?.createdAt ?? '';
    const last = nodes.at(-1)?.createdAt ?? '';
    // The person's own words: a mode switch's synthetic message ("[Continue as: Sorting] …") is
    // the agent talking to itself, never something the person said.
    const said = nodes
      .filter((n): n is TreeNode<'user'> => n.kind === 'user' && !isAgentsOwn(n))
      .map((n) => quote(n.payload.text));
    const shown =
      said.length <= QUOTED_MESSAGES
        ? said
        : [...said.slice(0, QUOTED_MESSAGES / 2), '…', ...said.slice(-QUOTED_MESSAGES / 2)];
    const replies = nodes.filter((n) => n.kind === 'assistant').length;
    return [
      `Offline summary of ${nodes.length} nodes (${kinds}) from ${first} to ${last}.`,
      said.length
        ? `The user wrote ${said.length} ${said.length === 1 ? 'message' : 'messages'}: ${shown.join(' / ')}.`
        : 'The user wrote nothing.',
      `The assistant replied ${replies} times.`,
    ].join(' ');
  }
}

function isAgentsOwn(node: TreeNode): boolean {
  return node.authorId.startsWith('agent:') || (node.payload as { synthetic?: boolean }).synthetic === true;
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `"${flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS - 1)}…` : flat}"`;
}
