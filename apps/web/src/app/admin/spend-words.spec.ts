import type { PersonSpend } from '@sweatpants/domain';

import {
  budgetWords,
  dollarWords,
  parseDollars,
  personBudgetWords,
  spentWords,
  usedUpWords,
} from './spend-words';

const person = (over: Partial<PersonSpend> = {}): PersonSpend => ({
  userId: 'u1',
  email: 'ada@example.com',
  displayName: 'Ada',
  todayUsd: 0.42,
  monthUsd: 3.1,
  limit: { dailyUsd: 1, monthlyUsd: null },
  limitSource: 'default',
  ...over,
});

describe('spend in words', () => {
  it('says dollars in cents, and fractions of a cent where cents would hide them', () => {
    expect(dollarWords(0)).toBe('$0');
    expect(dollarWords(0.0042)).toBe('$0.004');
    expect(dollarWords(12.5)).toBe('$12.50');
    expect(spentWords(person())).toBe('$0.42 today · $3.10 this month');
  });

  it('says a budget and whose it is', () => {
    expect(budgetWords({ dailyUsd: null, monthlyUsd: null })).toBe('no limit');
    expect(budgetWords({ dailyUsd: 1, monthlyUsd: 20 })).toBe('$1.00 a day, $20.00 a month');
    expect(personBudgetWords(person())).toBe('Budget: $1.00 a day (the default)');
    expect(
      personBudgetWords(person({ limitSource: 'person', limit: { dailyUsd: 0, monthlyUsd: null } })),
    ).toBe('Budget: $0 a day (set for them)');
  });

  it('says which budget is used up, the month first', () => {
    expect(usedUpWords(person())).toBeNull();
    expect(usedUpWords(person({ todayUsd: 1 }))).toBe('Daily budget used up');
    expect(usedUpWords(person({ todayUsd: 1, limit: { dailyUsd: 1, monthlyUsd: 3 } }))).toBe(
      'Monthly budget used up',
    );
  });

  it('reads a typed amount: empty is no limit, a number is dollars, anything else is a mistake', () => {
    expect(parseDollars(' ')).toBeNull();
    expect(parseDollars('$2.50')).toBe(2.5);
    expect(parseDollars('0')).toBe(0);
    expect(parseDollars('-1')).toBeUndefined();
    expect(parseDollars('lots')).toBeUndefined();
  });
});
