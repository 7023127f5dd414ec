/** The periods a budget covers: the UTC day and the UTC month `now` falls in, and when each ends. */
export interface SpendPeriods {
  dayStart: Date;
  dayEnd: Date;
  monthStart: Date;
  monthEnd: Date;
}

/**
 * UTC, so that every api process and every admin agrees on when "today" began and a budget resets,
 * wherever the server or the person is.
 *
 * @example
 * spendPeriods(new Date('2026-11-26T15:00:00Z')).dayEnd; // 2026-11-27T00:00:00Z
 */
export function spendPeriods(now: Date): SpendPeriods {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  return {
    dayStart: new Date(Date.UTC(y, m, d)),
    dayEnd: new Date(Date.UTC(y, m, d + 1)),
    monthStart: new Date(Date.UTC(y, m, 1)),
    monthEnd: new Date(Date.UTC(y, m + 1, 1)),
  };
}
