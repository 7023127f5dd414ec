import type { TreeNode } from '@sweatpants/domain';
import {
  historyOf,
  type ContentBlock,
  type SummaryPolicy,
  type ToolUseBlock,
} from '@sweatpants/agent-runtime';
import type { Model } from '@sweatpants/agent-runtime/host';

/** Whose conversation a summary is of: its model calls are paid from that person's budget. */
export interface SummaryFor {
  ownerId: string;
  conversationId: string;
}

/** Writes the text of a summary node for a range of a conversation's path. */
export interface Summariser {
  readonly kind: 'claude' | 'offline';
  /** `policy`: what to keep and which model writes it, as the conversation's agent says (summaryPolicy) */
  summarise(
    nodes: readonly TreeNode[],
    signal: AbortSignal,
    policy: SummaryPolicy,
    summaryFor: SummaryFor,
  ): Promise<string>;
}

/** The tool a summary is asked through: a summary is a structured result, so its call is forced. */
export const SUMMARY_TOOL = 'record_summary';
const SUMMARY_TOOL_SPEC = {
  name: SUMMARY_TOOL,
  description: 'Record the summary of the conversation. Call it exactly once.',
  inputSchema: {
    type: 'object' as const,
    properties: { summary: { type: 'string', description: 'the summary, in plain prose' } },
    required: ['summary'],
    additionalProperties: false,
  },
};
/** A model that answers otherwise is asked once more; then the offline summary stands in. */
const SUMMARY_ATTEMPTS = 2;

/**
 * A summary written by the conversation's model (Claude when ANTHROPIC_API_KEY is set), asked for
 * through a forced tool (which also gives the Messages API the tools the history's tool calls
 * need). A model that answers otherwise twice gets the offline summary in its place, so the
 * compaction still happens; a failed call fails the job, which BullMQ retries with backoff.
 *
 * The calls are the conversation owner's, as their agent's are: `paidBy` holds the model to their
 * budget (SpendLimits). A person at their budget gets the offline summary, which costs nothing,
 * rather than a compaction that fails until midnight.
 */
export class ModelSummariser implements Summariser {
  private readonly offline = new OfflineSummariser();

  constructor(
    private readonly model: Model,
    private readonly warn: (message: string) => void = () => undefined,
    private readonly paidBy: (model: Model, summaryFor: SummaryFor) => Model = (model) => model,
  ) {}

  get kind(): Model['kind'] {
    return this.model.kind;
  }

  async summarise(
    nodes: readonly TreeNode[],
    signal: AbortSignal,
    policy: SummaryPolicy,
    summaryFor: SummaryFor,
  ): Promise<string> {
    const model = this.paidBy(this.model, summaryFor);
    const messages = historyOf(nodes);
    // The Messages API wants the last turn to be the user's: the instruction goes there.
    const ask = {
      type: 'text' as const,
      text: `Summarise the conversation above, by calling ${SUMMARY_TOOL}.`,
    };
    const last = messages.at(-1);
    if (last?.role === 'user') last.content.push(ask);
    else messages.push({ role: 'user', content: [ask] });
    const request = {
      system: policy.instructions,
      messages,
      tools: [SUMMARY_TOOL_SPEC],
      toolChoice: SUMMARY_TOOL,
      ...(policy.model ? { model: policy.model } : {}),
    };
    for (let attempt = 1; attempt <= SUMMARY_ATTEMPTS; attempt++) {
      const reply = await model.complete(request, { signal });
      if (!reply.ok && reply.error.code === 'over_budget') {
        this.warn(
          `${summaryFor.conversationId}: its owner's budget is spent; the summary is written offline`,
        );
        return this.offline.summarise(nodes);
      }
      if (!reply.ok) throw new Error(`the model could not summarise: ${reply.error.message}`);
      const summary = summaryIn(reply.value.content);
      if (summary !== null) return summary;
      this.warn(`the model answered a summary otherwise (attempt ${attempt})`);
    }
    return this.offline.summarise(nodes);
  }
}

/** The summary a reply recorded through the tool; null when it answered otherwise, or blank. */
function summaryIn(content: readonly (ContentBlock | ToolUseBlock)[]): string | null {
  const use = content.find((b): b is ToolUseBlock => b.type === 'tool_use' && b.name === SUMMARY_TOOL);
  const summary = (use?.input as { summary?: unknown } | undefined)?.summary;
  return typeof summary === 'string' && summary.trim() !== '' ? summary.trim() : null;
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
