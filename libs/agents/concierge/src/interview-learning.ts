import * as z from 'zod';

/**
 * What the interview learns as it goes (seed 001's structured output): each turn may say, in a
 * sentence, how the user wants mail like the group just decided handled. The sentences are the
 * interview mode's data, so the template of every later step shows them and the next group's
 * options start from what the user already chose rather than from nothing.
 */

/** At most this many lessons are kept: the latest, as an interview has only a few groups. */
export const MAX_LEARNT = 8;

export const InterviewDataSchema = z.object({
  activityIds: z.array(z.string()),
  /** absent in interviews started before the interview learnt anything */
  learnt: z.array(z.string()).optional(),
});
export type InterviewData = z.infer<typeof InterviewDataSchema>;

export const InterviewOutputSchema = z.object({
  learnt: z
    .string()
    .describe(
      'How the user wants mail like this handled, as one sentence a later group can follow, e.g. ' +
        '"Promotions from shops they buy from: keep a note, do not show them (Tier 2)". Empty when this turn taught nothing.',
    ),
});
export type InterviewOutput = z.infer<typeof InterviewOutputSchema>;

/** The data after a turn's output: its lesson added (see `withLesson`). */
export function learnFrom(data: InterviewData, output: InterviewOutput): InterviewData {
  const known = data.learnt ?? [];
  const learnt = withLesson(known, output);
  return learnt === known ? data : { ...data, learnt };
}

/**
 * The lessons after a turn's output: its lesson added, unless empty or already known (then the
 * same array). The mode's data and the review the state panel shows keep them alike.
 */
export function withLesson(known: string[], output: InterviewOutput): string[] {
  const lesson = output.learnt.trim();
  if (lesson === '' || known.includes(lesson)) return known;
  return [...known, lesson].slice(-MAX_LEARNT);
}

/** The line of the interview's prompt that opens the lessons; the offline model reads them after it. */
export const LEARNT_HEADING =
  'What the user has shown you so far in this interview; for the groups still to come, offer the reading that follows it first and say that it does:';

/** The lessons as the template shows them, or nothing before the first. */
export function learntSection(learnt: readonly string[]): string {
  return learnt.length > 0 ? [LEARNT_HEADING, ...learnt.map((lesson) => `- ${lesson}`)].join('\n') : '';
}

/** The lessons a rendered interview prompt shows (read back by the offline rules). */
export function learntIn(system: string): string[] {
  const lines = system.split('\n');
  const at = lines.indexOf(LEARNT_HEADING);
  if (at < 0) return [];
  const lessons: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith('- ')) break;
    lessons.push(line.slice(2));
  }
  return lessons;
}
