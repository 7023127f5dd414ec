import { relativeTime } from './relative-time';

const now = new Date(2026, 2, 10, 15, 0).getTime();
const at = (year: number, month: number, day: number, hour: number, minute: number, second = 0) =>
  new Date(year, month, day, hour, minute, second).toISOString();

describe('relativeTime', () => {
  it('says minutes and hours today, then Yesterday, a weekday, a date', () => {
    expect(relativeTime(at(2026, 2, 10, 14, 59, 30), now)).toBe('now');
    expect(relativeTime(at(2026, 2, 10, 14, 55), now)).toBe('5 min');
    expect(relativeTime(at(2026, 2, 10, 9, 0), now)).toBe('6 h');
    expect(relativeTime(at(2026, 2, 9, 23, 0), now)).toBe('Yesterday');
    expect(relativeTime(at(2026, 2, 6, 12, 0), now, 'en-GB')).toBe('Fri');
    expect(relativeTime(at(2026, 0, 2, 12, 0), now, 'en-GB')).toBe('2 Jan');
    expect(relativeTime(at(2025, 11, 24, 12, 0), now, 'en-GB')).toBe('24 Dec 2025');
  });

  it('says nothing of a time it cannot read', () => {
    expect(relativeTime('not a time', now)).toBe('');
  });
});
