import type { SpendStanding } from './spend-ledger';
import { spendPeriods } from './spend-periods';

const dollars = (usd: number): string => `$${usd.toFixed(2)}`;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "in 5 hours", "in 3 days", "in 20 minutes": how long until `then`, roughly, as a person says it. */
export function fromNow(then: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((then.getTime() - now.getTime()) / 60_000));
  if (minutes < 60) return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} hour${hours === 1 ? '' : 's'}`;
  return `in ${Math.round(hours / 24)} days`;
}

/**
 * What a person reads instead of the agent's answer when their budget is spent: what happened,
 * that their words are kept, and when the budget resets (UTC, when every process and admin
 * counts from).
 *
 * @example
 * refusalWords('daily', standing, now);
 * // "I can't answer just now: your daily budget of $1.00 is used up ($1.02 spent today). …"
 */
export function refusalWords(period: 'daily' | 'monthly', standing: SpendStanding, now: Date): string {
  const { dayEnd, monthEnd } = spendPeriods(now);
  const budget = period === 'daily' ? standing.limit.dailyUsd : standing.limit.monthlyUsd;
  const spent =
    period === 'daily'
      ? `${dollars(standing.todayUsd)} spent today`
      : `${dollars(standing.monthUsd)} spent this month`;
  const resets =
    period === 'daily'
      ? `at midnight UTC, ${fromNow(dayEnd, now)}`
      : `on ${monthEnd.getUTCDate()} ${MONTHS[monthEnd.getUTCMonth()]} (UTC), ${fromNow(monthEnd, now)}`;
  return (
    `I can't answer just now: your ${period} budget of ${dollars(budget ?? 0)} is used up (${spent}). ` +
    `What you wrote is kept. The budget resets ${resets}; write again then and we'll go on from here, ` +
    `or ask an admin to raise it.`
  );
}
