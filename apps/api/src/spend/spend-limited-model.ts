import type { Model } from '@sweatpants/agent-runtime/host';
import { costOf } from '@sweatpants/agent-claude';
import type { SpendLimit } from '@sweatpants/domain';
import type { SpendLedger } from './spend-ledger';
import { refusalWords } from './spend-refusal-words';

/** Where a limited model reports what it spent and refused (the api's Prometheus metrics). */
export interface SpendReports {
  spent(model: string, usd: number): void;
  refused(reason: 'daily' | 'monthly'): void;
  /** an unknown model was billed at the dearest prices */
  warn(message: string): void;
}

/** Whose budget a conversation's calls spend, and by what rules. */
export interface SpendAccount {
  userId: string;
  conversationId: string;
  ledger: SpendLedger;
  /** the deployment's default budget, read at each call */
  defaults: () => SpendLimit;
  reports: SpendReports;
}

/**
 * `model`, each call reserved against the person's budget before it starts and settled with what
 * its reply's usage cost after (the usage the assistant node records, at the model's published
 * prices). A call that would start over the budget is not made: it answers `over_budget` with the
 * plain words the person reads (createAgent's agents say them as their fallback reply), and the
 * turn ends as it does when the model is busy, with the person's words kept. Every call of a
 * conversation's runner passes through here (ConversationActors wraps the model it opens with),
 * so no agent checks anything itself.
 *
 * @example
 * const model = spendLimitedModel(claude, { userId, conversationId, ledger, defaults: () => config.spendLimit, reports });
 */
export function spendLimitedModel(model: Model, account: SpendAccount): Model {
  const free = model.kind === 'offline';
  return {
    kind: model.kind,
    name: model.name,
    complete: async (request, options) => {
      const now = new Date();
      const asked = request.model ?? model.name;
      const call = { userId: account.userId, conversationId: account.conversationId, model: asked, free };
      // The model's contract: a failure is an Err, never a rejection (the database may be away).
      const reservation = await account.ledger
        .reserve(call, account.defaults(), now)
        .catch((error: unknown) => {
          account.reports.warn(`spend: could not reserve a call: ${String(error)}`);
          return null;
        });
      if (reservation === null) {
        return {
          ok: false,
          error: { code: 'unavailable', message: 'the spend ledger could not be reached' },
        };
      }
      if (reservation.kind === 'refused') {
        account.reports.refused(reservation.period);
        const message = refusalWords(reservation.period, reservation.standing, now);
        return { ok: false, error: { code: 'over_budget', message } };
      }
      const id = reservation.id;
      if (id === null) return model.complete(request, options);
      const result = await model.complete(request, options).catch(async (error: unknown) => {
        await settle(account, id, asked, 0);
        throw error;
      });
      // A failed call answered nothing and is billed nothing.
      const answered = result.ok ? result.value.model : asked;
      const cost = result.ok ? costOf(answered, result.value.usage, account.reports.warn) : 0;
      await settle(account, id, answered, cost);
      if (cost > 0) account.reports.spent(answered, cost);
      return result;
    },
  };
}

/** Settles the reservation; one that cannot be (the database away) keeps counting at its reckoning. */
async function settle(account: SpendAccount, id: string, model: string, cost: number): Promise<void> {
  await account.ledger
    .settle(id, model, cost)
    .catch((error: unknown) => account.reports.warn(`spend: could not settle call ${id}: ${String(error)}`));
}
