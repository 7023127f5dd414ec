import {
  err,
  ok,
  parseElicitResponse,
  type ElicitAnswer,
  type ElicitRequest,
  type ElicitResponse,
  type FieldProblem,
  type Json,
  type Result,
} from '@sweatpants/domain';
import { createQueue, type Queue } from 'effection';
import type { Implementation } from './protocol';
import type * as z from 'zod';
import type { ElicitResponseSchema, ElicitProtocolSpec } from './elicit-protocol';
import { asSchema, validateJson } from './offline/json-schema';

type Event =
  | { kind: 'progress'; payload: Json }
  | { kind: 'answer'; response: ElicitResponse & { answeredBy?: string } };

interface Pending {
  request: ElicitRequest;
  events: Queue<Event, never>;
}

/** Why an answer was refused: no such pending elicit, or a content that does not fit its type. */
export interface AnswerError {
  code: 'not_found' | 'invalid_request';
  message: string;
  /** each bad field and why, as PROTOCOL.md's 400 `details` */
  problems?: FieldProblem[];
}

/**
 * The elicit implementation whose answers arrive from outside effection: the api's socket handler
 * (and tests) call `answer` and `progress`. It holds the elicits waiting for an answer, so a client
 * that reconnects can be sent them again, and it checks each answer against its elicit's type
 * before the agent sees it: a content that does not fit is refused and the elicit stays pending.
 *
 * @example
 * const elicits = new PendingElicits();
 * yield* ElicitProtocol.implement(elicits.implementation);
 * // from the socket handler, once the elicit is pending:
 * const [pending] = elicits.list();
 * elicits.answer({ elicitId: pending.elicitId, action: 'accept', content: { value: true } }, user.id);
 */
export class PendingElicits {
  private readonly pending = new Map<string, Pending>();
  /** who waits for an elicit to become pending (`whenPending`) */
  private readonly arrivals = new Map<string, Set<() => void>>();

  constructor(
    private readonly hooks: {
      shown?: (request: ElicitRequest) => void;
      withdrawn?: (elicitId: string, reason: string) => void;
    } = {},
  ) {}

  /** The implementation to put in force with `ElicitProtocol.implement`. */
  readonly implementation: Implementation<ElicitProtocolSpec> = {
    elicit: (request, send) => {
      const pending = this.pending;
      const hooks = this.hooks;
      const arrived = (elicitId: string) => {
        for (const wake of this.arrivals.get(elicitId) ?? []) wake();
        this.arrivals.delete(elicitId);
      };
      return (function* () {
        const events = createQueue<Event, never>();
        pending.set(request.elicitId, { request: request as ElicitRequest, events });
        arrived(request.elicitId);
        hooks.shown?.(request as ElicitRequest);
        let answered = false;
        try {
          for (;;) {
            const next = yield* events.next();
            if (next.done) throw new Error('unreachable: the queue never closes');
            if (next.value.kind === 'progress') yield* send({ payload: next.value.payload });
            else {
              answered = true;
              return next.value.response as z.infer<typeof ElicitResponseSchema>;
            }
          }
        } finally {
          pending.delete(request.elicitId);
          // Halted before an answer: cancelled, timed out, or the runner stopped.
          if (!answered) hooks.withdrawn?.(request.elicitId, 'withdrawn');
        }
      })();
    },
  };

  /** the elicits waiting for an answer, oldest first */
  list(): ElicitRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /** Whether `elicitId` waits for an answer here. */
  has(elicitId: string): boolean {
    return this.pending.has(elicitId);
  }

  /**
   * Resolves once `elicitId` is pending. An elicit is announced (its node written, the client
   * told) a moment before it is held here, so a quick client's answer may arrive in between.
   * `cancel` stops waiting.
   */
  whenPending(elicitId: string): { promise: Promise<void>; cancel(): void } {
    if (this.pending.has(elicitId)) return { promise: Promise.resolve(), cancel: () => undefined };
    let wake: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => (wake = resolve));
    const waiters = this.arrivals.get(elicitId) ?? new Set();
    waiters.add(wake);
    this.arrivals.set(elicitId, waiters);
    return {
      promise,
      cancel: () => {
        waiters.delete(wake);
        if (waiters.size === 0 && this.arrivals.get(elicitId) === waiters) this.arrivals.delete(elicitId);
      },
    };
  }

  /**
   * Answers a pending elicit; refuses an unknown id or a content that does not fit the type (a
   * form's, the schema it was asked with: a field it did not ask is refused, not dropped).
   * `authorId`, the user who answered, is recorded as the author of the answer's node.
   */
  answer(answer: ElicitAnswer, authorId?: string): Result<ElicitResponse, AnswerError> {
    const pending = this.pending.get(answer.elicitId);
    if (!pending) return err({ code: 'not_found', message: `no pending elicit ${answer.elicitId}` });
    const parsed = parseElicitResponse(pending.request.type, answer);
    if (!parsed.ok) return err({ code: 'invalid_request', ...parsed.error });
    const misfit =
      parsed.value.action === 'accept' ? formMisfit(pending.request, parsed.value.content) : undefined;
    if (misfit) return err(misfit);
    const response = authorId === undefined ? parsed.value : { ...parsed.value, answeredBy: authorId };
    pending.events.add({ kind: 'answer', response });
    return ok(parsed.value);
  }

  /** Progress from the browser while the user works on an elicit. */
  progress(elicitId: string, payload: Json): Result<void, AnswerError> {
    const pending = this.pending.get(elicitId);
    if (!pending) return err({ code: 'not_found', message: `no pending elicit ${elicitId}` });
    pending.events.add({ kind: 'progress', payload });
    return ok(undefined);
  }
}

/**
 * How a form's content breaks the schema the form was asked with, named as PROTOCOL.md's 400 names
 * fields (`content.bags`), or undefined when it fits or the question is no form.
 */
function formMisfit(request: ElicitRequest, content: Json): AnswerError | undefined {
  const schema = request.type === 'form' ? asSchema(request.schema) : undefined;
  if (schema === undefined) return undefined;
  const issues = validateJson(schema, content);
  if (issues.length === 0) return undefined;
  const problems = issues.map((issue) => ({
    field: `content${issue.path.slice(1)}`,
    message: issue.message,
  }));
  return {
    code: 'invalid_request',
    message: problems.map(({ field, message }) => `${field}: ${message}`).join('; '),
    problems,
  };
}
