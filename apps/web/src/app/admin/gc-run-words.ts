import type { GcRun } from '@sweatpants/domain';

/**
 * A gc run in plain words, for admins: what it removed (or would have), from how many
 * conversations, and under which policy. Never an id.
 */
export function gcRunWords(run: GcRun): string {
  if (run.finishedAt === null) return 'Running…';
  if (run.error !== null) return `Failed: ${run.error}`;
  const removed = [
    count(run.reflogEntries, 'old history entry', 'old history entries'),
    count(run.nodes, 'unreachable message or step', 'unreachable messages and steps'),
  ];
  const from = count(run.conversations, 'conversation', 'conversations');
  const what =
    run.reflogEntries === 0 && run.nodes === 0
      ? `nothing to remove in ${from}`
      : `${run.dryRun ? 'would remove' : 'removed'} ${removed.join(' and ')} across ${from}`;
  return `${run.dryRun ? 'Dry run: ' : ''}${capital(what)}`;
}

/** Who started it: the schedule, or an admin. */
export function gcRunCause(run: GcRun, you: string | null): string {
  if (run.requestedBy === 'schedule') return 'on schedule';
  return run.requestedBy === you ? 'run by you' : 'run by an admin';
}

/** "Keeps history 90 days, discarded branches 30" */
export function gcPolicyWords(run: GcRun): string {
  const { reachableDays, unreachableDays } = run.policy;
  return `keeps history ${reachableDays} days, discarded branches ${unreachableDays}`;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * When a run started, as a person says it, in local time: "Today 03:00", "Yesterday 03:00", a
 * weekday within the week ("Monday 03:00"), else the date ("3 Nov 03:00", with the year when it is
 * not this one).
 */
export function gcRunWhen(startedAt: string, now: Date = new Date()): string {
  const at = new Date(startedAt);
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  const days = Math.round((startOfDay(now) - startOfDay(at)) / 86_400_000);
  if (days === 0) return `Today ${time}`;
  if (days === 1) return `Yesterday ${time}`;
  if (days > 1 && days < 7) return `${WEEKDAYS[at.getDay()]} ${time}`;
  const year = at.getFullYear() === now.getFullYear() ? '' : ` ${at.getFullYear()}`;
  return `${at.getDate()} ${MONTHS[at.getMonth()]}${year} ${time}`;
}

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
