import type { Context, Span } from '@opentelemetry/api';
import type { ElicitRequest } from '@sweatpants/domain';
import { GEN_AI, SWEATPANTS } from './span-attributes';
import { tracer } from './tracer';

/** Waits kept open at most; past it the oldest ends as `unfinished` (its answer came elsewhere). */
const MAX_OPEN_WAITS = 10_000;

/**
 * The spans of questions waiting for a person: one per elicit, from asked to answered (or
 * withdrawn), under the command whose turn asked it. The chat prompt is not one: waiting for the
 * person's next message is the conversation at rest, and that message is a trace of its own.
 * Asked again under the same id (a runner rebuilt from the tree), it stays the one span.
 */
export class ElicitWaits {
  private readonly open = new Map<string, Span>();

  asked(conversationId: string, request: ElicitRequest, parent: Context): void {
    if (request.type === 'chat') return;
    const key = keyOf(conversationId, request.elicitId);
    if (this.open.has(key)) return;
    if (this.open.size >= MAX_OPEN_WAITS) {
      const [oldest] = this.open.keys();
      if (oldest !== undefined) this.end(oldest, 'unfinished');
    }
    const span = tracer.startSpan(
      `elicit wait ${request.type}`,
      {
        attributes: {
          [GEN_AI.conversationId]: conversationId,
          [SWEATPANTS.elicitId]: request.elicitId,
          [SWEATPANTS.elicitType]: request.type,
        },
      },
      parent,
    );
    this.open.set(key, span);
  }

  /** The wait is over: `answered`, or the reason it was withdrawn (`timeout`, `cancelled`…). */
  ended(conversationId: string, elicitId: string, outcome: string): void {
    this.end(keyOf(conversationId, elicitId), outcome);
  }

  private end(key: string, outcome: string): void {
    const span = this.open.get(key);
    if (!span) return;
    this.open.delete(key);
    span.setAttribute(SWEATPANTS.elicitOutcome, outcome);
    span.end();
  }
}

const keyOf = (conversationId: string, elicitId: string): string => `${conversationId} ${elicitId}`;
