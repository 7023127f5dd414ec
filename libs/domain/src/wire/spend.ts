import * as z from 'zod';

/** Dollars, as budgets and spend are reckoned (the models' published prices are per token). */
const Dollars = z.number().nonnegative().max(1_000_000);

/** A budget in dollars per UTC day and per UTC month; null: no limit for that period. */
export const SpendLimitSchema = z.object({
  dailyUsd: Dollars.nullable(),
  monthlyUsd: Dollars.nullable(),
});
export type SpendLimit = z.infer<typeof SpendLimitSchema>;

/**
 * One person's spend on models, as admins see it (`GET /api/admin/spend`): what their
 * conversations' model calls cost today and this month (UTC), priced from the usage each call
 * recorded, and the budget they are held to: the deployment's default or one an admin set.
 */
export const PersonSpendSchema = z.object({
  userId: z.string(),
  email: z.string(),
  displayName: z.string(),
  todayUsd: z.number().nonnegative(),
  monthUsd: z.number().nonnegative(),
  limit: SpendLimitSchema,
  /** `default`: the deployment's (SPEND_LIMIT_*_USD); `person`: an admin set this person's own */
  limitSource: z.enum(['default', 'person']),
});
export type PersonSpend = z.infer<typeof PersonSpendSchema>;

export const SpendReportSchema = z.object({
  /** the deployment's default budget (SPEND_LIMIT_DAILY_USD, SPEND_LIMIT_MONTHLY_USD) */
  defaults: SpendLimitSchema,
  /** most spent this month first */
  items: z.array(PersonSpendSchema),
});
export type SpendReport = z.infer<typeof SpendReportSchema>;

export const SpendReportQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** `POST /api/admin/users/:userId/spend-limit`: this person's own budget; null for no limit. */
export const SetSpendLimitRequestSchema = z.strictObject({
  dailyUsd: Dollars.nullable(),
  monthlyUsd: Dollars.nullable(),
});
export type SetSpendLimitRequest = z.infer<typeof SetSpendLimitRequestSchema>;
