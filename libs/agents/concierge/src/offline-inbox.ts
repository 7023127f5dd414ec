import { ActivitySchema, type Activity, type ActivityStatus } from '@sweatpants/domain';
import * as z from 'zod';
import type { OfflineRule } from '@sweatpants/agent-runtime/offline';
import { fresh, inOverview } from './offline-read';

/**
 * "What's in my inbox?" in the overview, offline: the concierge reads the inbox and says what it
 * holds, by how each item stands, then what it can do about the ones waiting on the person.
 */

/** Asking what the inbox holds: "what's in my inbox?", "how many emails do I have?", "show me my mail". */
const WHAT_IS_IN =
  /\b(?:what(?:'s| is)?(?: new)? (?:in|on)|how many|show(?: me)?|list|summar\w*|overview of|anything (?:new )?in)\b.*\b(?:inbox|e-?mails?|mail|messages|items)\b/i;

/** How each status reads to the person, in the order the reply names them. */
const STATUS_WORDS: Record<ActivityStatus, string> = {
  surfaced: 'shown to you',
  quarantined: 'held back (quarantined)',
  pending: 'new and not sorted yet',
  processed: 'noted',
  archived: 'archived',
};

/** How many items the read takes: the demo inbox is smaller; a real one says "at least". */
const READ_LIMIT = 100;

export const readInbox: OfflineRule = {
  name: 'concierge: asked what the inbox holds, read it',
  when: (ctx) => inOverview(ctx) && fresh(ctx) && WHAT_IS_IN.test(ctx.userText),
  reply: () => ({
    text: '(offline) Reading your inbox…',
    calls: [{ name: 'query_activities', input: { limit: READ_LIMIT } }],
  }),
};

export const tellInbox: OfflineRule = {
  name: 'concierge: say what the inbox holds, by how each item stands',
  when: (ctx) => inOverview(ctx) && ctx.resultOf('query_activities') !== undefined,
  reply: (ctx) => {
    const result = ctx.resultOf('query_activities');
    if (result?.isError)
      return { text: `(offline) I could not read your inbox: ${result.content}. Ask me again in a moment.` };
    const read = z.object({ activities: z.array(ActivitySchema) }).safeParse(result?.data).data;
    if (!read) return { text: '(offline) I could not make sense of what your inbox answered.' };
    return { text: `(offline) ${inboxInWords(read.activities)}` };
  },
};

/** "Your inbox holds 10 items: 2 shown to you (…), 5 held back (quarantined), …. Say …" */
export function inboxInWords(activities: readonly Activity[]): string {
  if (activities.length === 0) return 'Your inbox is empty.';
  const of = (status: ActivityStatus) => activities.filter((a) => a.status === status);
  const counts = (Object.keys(STATUS_WORDS) as ActivityStatus[])
    .filter((status) => of(status).length > 0)
    .map((status) => `${of(status).length} ${STATUS_WORDS[status]}`);
  const total = `${activities.length >= READ_LIMIT ? 'at least ' : ''}${plural(activities.length, 'item')}`;
  const shown = of('surfaced').map((a) => `“${a.subject}” from ${a.senderName || a.sender}`);
  const next = [
    of('quarantined').length > 0 ? `“review my quarantined items” to decide the ones held back` : '',
    of('pending').length > 0 ? `“sort my new items” to sort the new ones` : '',
  ].filter(Boolean);
  return [
    `Your inbox holds ${total}: ${counts.join(', ')}.`,
    shown.length > 0 ? `Shown to you: ${shown.join('; ')}.` : '',
    next.length > 0 ? `Say ${next.join(', or ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
