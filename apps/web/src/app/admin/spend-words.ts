import type { PersonSpend, SpendLimit } from '@sweatpants/domain';

/**
 * Dollars as an admin reads them: cents, or a tenth of a cent below one (a short session on Claude
 * costs fractions of a cent, which "$0.00" would hide).
 *
 * @example
 * dollarWords(0.0042); // '$0.004'
 */
export function dollarWords(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** What a person spent, in a line: "$0.42 today · $3.10 this month". */
export function spentWords(person: PersonSpend): string {
  return `${dollarWords(person.todayUsd)} today · ${dollarWords(person.monthUsd)} this month`;
}

/** A budget in words: "$1.00 a day, $20.00 a month", "no limit". */
export function budgetWords(limit: SpendLimit): string {
  const parts = [
    ...(limit.dailyUsd === null ? [] : [`${dollarWords(limit.dailyUsd)} a day`]),
    ...(limit.monthlyUsd === null ? [] : [`${dollarWords(limit.monthlyUsd)} a month`]),
  ];
  return parts.length === 0 ? 'no limit' : parts.join(', ');
}

/** Whose budget a person is held to, in words: "Budget: $1.00 a day (the default)". */
export function personBudgetWords(person: PersonSpend): string {
  const source = person.limitSource === 'default' ? ' (the default)' : ' (set for them)';
  return `Budget: ${budgetWords(person.limit)}${source}`;
}

/** Which of their budgets a person has used up, if any: "Daily budget used up". */
export function usedUpWords(person: PersonSpend): string | null {
  const { dailyUsd, monthlyUsd } = person.limit;
  if (monthlyUsd !== null && person.monthUsd >= monthlyUsd) return 'Monthly budget used up';
  if (dailyUsd !== null && person.todayUsd >= dailyUsd) return 'Daily budget used up';
  return null;
}

/**
 * A dollars field as typed: '' is no limit (null), a number of dollars is that; anything else is
 * a mistake to say (undefined).
 */
export function parseDollars(typed: string): number | null | undefined {
  const text = typed.trim().replace(/^\$/, '');
  if (text === '') return null;
  const usd = Number(text);
  return Number.isFinite(usd) && usd >= 0 ? usd : undefined;
}
