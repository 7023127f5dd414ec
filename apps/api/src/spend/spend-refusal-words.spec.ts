import type { SpendStanding } from './spend-ledger';
import { overWhich } from './spend-ledger';
import { spendPeriods } from './spend-periods';
import { fromNow, refusalWords } from './spend-refusal-words';

const standing = (over: Partial<SpendStanding> = {}): SpendStanding => ({
  todayUsd: 1.02,
  monthUsd: 7.5,
  limit: { dailyUsd: 1, monthlyUsd: 20 },
  limitSource: 'default',
  ...over,
});

describe('the periods a budget covers', () => {
  it('are the UTC day and month, the month ending on the first of the next (December into January too)', () => {
    const periods = spendPeriods(new Date('2026-12-31T23:30:00Z'));
    expect(periods).toEqual({
      dayStart: new Date('2026-12-31T00:00:00Z'),
      dayEnd: new Date('2027-01-01T00:00:00Z'),
      monthStart: new Date('2026-12-01T00:00:00Z'),
      monthEnd: new Date('2027-01-01T00:00:00Z'),
    });
  });
});

describe('which budget is spent', () => {
  it('is none below both, the month first when both are, and any at a budget of 0', () => {
    expect(overWhich(standing({ todayUsd: 0.5 }))).toBeNull();
    expect(overWhich(standing())).toBe('daily');
    expect(overWhich(standing({ monthUsd: 20 }))).toBe('monthly');
    expect(overWhich(standing({ todayUsd: 0, monthUsd: 0, limit: { dailyUsd: 0, monthlyUsd: null } }))).toBe(
      'daily',
    );
    expect(overWhich(standing({ limit: { dailyUsd: null, monthlyUsd: null } }))).toBeNull();
  });
});

describe('what a person reads when their budget is spent', () => {
  const now = new Date('2026-11-26T15:45:00Z');

  it('says which budget, what was spent, that their words are kept, and when it resets', () => {
    expect(refusalWords('daily', standing(), now)).toBe(
      "I can't answer just now: your daily budget of $1.00 is used up ($1.02 spent today). What you wrote is kept. " +
        "The budget resets at midnight UTC, in 8 hours; write again then and we'll go on from here, or ask an admin to raise it.",
    );
    expect(refusalWords('monthly', standing({ monthUsd: 20.4 }), now)).toContain(
      'your monthly budget of $20.00 is used up ($20.40 spent this month). What you wrote is kept. The budget resets on 1 December (UTC), in 4 days',
    );
  });

  it('says how long until then as a person would', () => {
    expect(fromNow(new Date('2026-11-26T16:00:00Z'), now)).toBe('in 15 minutes');
    expect(fromNow(new Date('2026-11-26T16:45:00Z'), now)).toBe('in 1 hour');
    expect(fromNow(new Date('2026-11-26T15:45:10Z'), now)).toBe('in 1 minute');
  });
});
