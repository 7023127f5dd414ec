import type { GcRun } from '@sweatpants/domain';

import { gcPolicyWords, gcRunCause, gcRunWhen, gcRunWords } from './gc-run-words';

const run = (over: Partial<GcRun> = {}): GcRun => ({
  id: 'a3f1c2d4-0000-4000-8000-000000000001',
  requestedBy: 'schedule',
  dryRun: false,
  policy: { reachableDays: 90, unreachableDays: 30 },
  startedAt: '2026-11-24T03:00:00.000Z',
  finishedAt: '2026-11-24T03:00:02.000Z',
  conversations: 3,
  reflogEntries: 12,
  nodes: 40,
  error: null,
  ...over,
});

describe('a gc run in words', () => {
  it('says what went, from how many conversations, without ids', () => {
    expect(gcRunWords(run())).toBe(
      'Removed 12 old history entries and 40 unreachable messages and steps across 3 conversations',
    );
    expect(gcRunWords(run({ reflogEntries: 1, nodes: 1, conversations: 1 }))).toBe(
      'Removed 1 old history entry and 1 unreachable message or step across 1 conversation',
    );
  });

  it('says a dry run would, a quiet run found nothing, a running one runs, a failed one why', () => {
    expect(gcRunWords(run({ dryRun: true }))).toMatch(/^Dry run: Would remove 12 old history entries/);
    expect(gcRunWords(run({ reflogEntries: 0, nodes: 0 }))).toBe('Nothing to remove in 3 conversations');
    expect(gcRunWords(run({ finishedAt: null }))).toBe('Running…');
    expect(gcRunWords(run({ error: 'the database went away' }))).toBe('Failed: the database went away');
  });

  it('names the cause and the policy', () => {
    expect(gcRunCause(run(), 'me')).toBe('on schedule');
    expect(gcRunCause(run({ requestedBy: 'me' }), 'me')).toBe('run by you');
    expect(gcRunCause(run({ requestedBy: 'someone' }), 'me')).toBe('run by an admin');
    expect(gcPolicyWords(run())).toBe('keeps history 90 days, discarded branches 30');
  });
});

describe('when a gc run started, in words', () => {
  // Local times, so the words do not depend on the time zone the test runs in.
  const now = new Date(2026, 10, 24, 12, 30);
  const at = (...parts: [number, number, number, number, number]) => new Date(...parts).toISOString();

  it('says today, yesterday or the weekday with the time', () => {
    expect(gcRunWhen(at(2026, 10, 24, 3, 0), now)).toBe('Today 03:00');
    expect(gcRunWhen(at(2026, 10, 23, 3, 5), now)).toBe('Yesterday 03:05');
    expect(gcRunWhen(at(2026, 10, 23, 23, 59), now)).toBe('Yesterday 23:59');
    // 24 Nov 2026 is a Tuesday: the Friday before.
    expect(gcRunWhen(at(2026, 10, 20, 14, 0), now)).toBe('Friday 14:00');
  });

  it('gives the date for older runs, and the year when it is not this one', () => {
    expect(gcRunWhen(at(2026, 10, 3, 3, 0), now)).toBe('3 Nov 03:00');
    expect(gcRunWhen(at(2025, 11, 31, 3, 0), now)).toBe('31 Dec 2025 03:00');
  });
});
