const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * When something last happened, as a chat list says it: "now", "5 min", "3 h", "Yesterday", a
 * weekday within the week, then a date (with the year once it is another year's).
 */
export function relativeTime(iso: string, now: number, locale?: string): string {
  const then = new Date(iso);
  const ago = now - then.getTime();
  if (Number.isNaN(ago)) return '';
  if (ago < MINUTE) return 'now';
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min`;
  const today = startOfDay(now);
  if (then.getTime() >= today) return `${Math.floor(ago / HOUR)} h`;
  if (then.getTime() >= today - DAY) return 'Yesterday';
  if (then.getTime() >= today - 6 * DAY) return then.toLocaleDateString(locale, { weekday: 'short' });
  const sameYear = then.getFullYear() === new Date(now).getFullYear();
  return then.toLocaleDateString(locale, {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}

/** The full date and time, for a tooltip beside the short form. */
export function fullTime(iso: string, locale?: string): string {
  const then = new Date(iso);
  return Number.isNaN(then.getTime())
    ? ''
    : then.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
}

function startOfDay(time: number): number {
  const day = new Date(time);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}
