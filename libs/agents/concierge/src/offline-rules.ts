import { toJson, type Json } from '@sweatpants/domain';
import * as z from 'zod';
import {
  setQuestionAsideRule,
  type OfflineContext,
  type OfflineReply,
  type OfflineRule,
} from '@sweatpants/agent-runtime/offline';
import { clusterActivities, frameOptions, letteredLabel, readChoice, type Cluster } from './option-framing';
import { CardOfferSchema, openCardIn } from './side-quest';
import { learntIn } from './interview-learning';
import { recapIn, REVIEW_FINISHED } from './review-tools';
import { newReadingOfASender } from './offline-new-reading';
import { answerAside, HOW_TO_TAKE_BACK, STOP, stopAside, TAKE_BACK } from './offline-aside';
import { UpdatesInputSchema } from './tool-inputs';
import { callsIn, fresh, inOverview, lastQueried, lesson, objectField, openOffer } from './offline-read';
import { readInbox, tellInbox } from './offline-inbox';
import { samePickAside, splitPickAside } from './offline-split-pick';

/**
 * The concierge's offline rules: without an API key they walk the whole quarantine interview
 * deterministically (start → query → cluster → choose → one batch update → confirm → next group),
 * and every line they write starts with "(offline)" so the user knows who is answering.
 */

const ID = /\b[a-z]+-\d+\b/gi;

/** The quarantined activities of the last query, grouped, minus the groups already offered. */
function remainingClusters(ctx: OfflineContext): Cluster[] {
  const queried = lastQueried(ctx);
  if (!queried) return [];
  const since = queried.at;
  const offered = new Set(
    callsIn(ctx)
      .filter((c) => c.name === 'present_options' && c.at > since)
      .flatMap((c) => CardOfferSchema.safeParse(c.input).data?.activity_ids ?? []),
  );
  const open = queried.activities.filter((a) => a.status === 'quarantined' && !offered.has(a.id));
  return clusterActivities(open);
}

/**
 * The options of a group, or the end of the interview when no group is left. `first`, when given,
 * is offered before the groups still to come (the items a card's typed words left undecided).
 */
function nextGroup(ctx: OfflineContext, lead: string, first?: Cluster): OfflineReply {
  const [cluster, ...rest] = [...(first ? [first] : []), ...remainingClusters(ctx)];
  if (!cluster) {
    return {
      text: `${lead} That was the last group.`.trim(),
      calls: [{ name: 'finish_review', input: { summary: 'Every quarantined group has been decided.' } }],
    };
  }
  const n = cluster.activities.length;
  const subjects = cluster.activities.map((a) => `“${a.subject}” (${a.senderName || a.sender})`);
  const more = rest.length > 0 ? ` After these, ${rest.length} more group${rest.length > 1 ? 's' : ''}.` : '';
  const learnt = learntIn(ctx.request.system);
  const sofar = learnt.length > 0 ? ` So far you chose: ${learnt.join('; ')}.` : '';
  const options = frameOptions(cluster).map(({ id, label, reason, updates }) => ({
    id,
    label,
    reason,
    updates,
  }));
  // The options are the card's, lettered there with their reasons: the words only say what the
  // group is, so the chat does not show them twice.
  return {
    text: `${lead}${sofar} ${n === 1 ? 'Next, one item on its own' : `These ${n} items read alike`}: ${subjects.join(', ')}.${more}`.trim(),
    calls: [
      {
        name: 'present_options',
        input: toJson({
          activity_ids: cluster.activities.map((a) => a.id),
          message:
            n === 1
              ? 'How should I read this item? Tap one, or type its letter.'
              : `How should I read these ${n} items? Tap one, or type e.g. “B for all of these”.`,
          options,
        }),
      },
    ],
  };
}

const inInterview = (ctx: OfflineContext) => ctx.offers('present_options');

export const typedPick: OfflineRule = {
  name: 'concierge: a pick typed in the chat applies the offered option',
  when: (ctx) => inInterview(ctx) && fresh(ctx),
  reply: (ctx) => {
    const offer = openOffer(ctx);
    const picked =
      offer &&
      readChoice(
        ctx.userText,
        offer.options.map((o) => o.id),
      );
    const option = offer?.options.find((o) => o.id === picked);
    if (!offer || !option) return undefined;
    return {
      text: `(offline) ${option.id} it is: applying it to all ${offer.activity_ids.length}.`,
      calls: [
        {
          name: 'update_activities',
          input: toJson({ activity_ids: offer.activity_ids, updates: option.updates }),
        },
        lesson(ctx, letteredLabel(option.id, option.label), offer.activity_ids),
      ],
    };
  },
};

export const stopReview: OfflineRule = {
  name: 'concierge: the user stops the interview',
  when: (ctx) => inInterview(ctx) && fresh(ctx) && STOP.test(ctx.userText),
  reply: () => ({
    text: '(offline) We can stop here; the rest stays quarantined.',
    calls: [
      { name: 'finish_review', input: { summary: 'The user stopped; undecided items stay quarantined.' } },
    ],
  }),
};

export const readQuarantine: OfflineRule = {
  name: 'concierge: the interview reads the quarantined items',
  when: (ctx) => inInterview(ctx) && fresh(ctx),
  reply: (ctx) => {
    const ids = [...new Set(ctx.userText.match(ID) ?? [])];
    return {
      text: '(offline) Reading your quarantined items…',
      calls: [
        {
          name: 'query_activities',
          input: { status: 'quarantined', ...(ids.length ? { ids } : {}), limit: 50 },
        },
      ],
    };
  },
};

export const offerFirstGroup: OfflineRule = {
  name: 'concierge: group the quarantined items and offer options for the first group',
  when: (ctx) => inInterview(ctx) && ctx.resultOf('query_activities') !== undefined,
  reply: (ctx) => {
    const result = ctx.resultOf('query_activities');
    if (result?.isError)
      return { text: `(offline) I could not read your items: ${result.content}. Ask me again in a moment.` };
    const count = remainingClusters(ctx).reduce((sum, c) => sum + c.activities.length, 0);
    if (count === 0)
      return {
        text: '(offline) Nothing is waiting in quarantine.',
        calls: [{ name: 'finish_review', input: { summary: 'Nothing was quarantined.' } }],
      };
    return nextGroup(ctx, `(offline) ${count} quarantined item${count > 1 ? 's' : ''}.`);
  },
};

export const applyPick: OfflineRule = {
  name: 'concierge: apply the picked option in one batch, or leave the group and go on',
  when: (ctx) => inInterview(ctx) && ctx.resultOf('present_options') !== undefined,
  reply: (ctx) => {
    const result = ctx.resultOf('present_options');
    if (!result || result.isError) return nextGroup(ctx, `(offline) That did not work (${result?.content}).`);
    const picked = z
      .object({
        choice: z.string().min(1),
        label: z.string().optional(),
        activity_ids: z.array(z.string()),
        updates: UpdatesInputSchema,
      })
      .safeParse(result.data);
    // Typed words picked for some of the card's items (a side quest applied those): the rest is
    // offered again, before the groups still to come.
    const inWords = z
      .object({ applied_in_words: z.array(z.string()).min(1), remaining_ids: z.array(z.string()) })
      .safeParse(result.data).data;
    if (inWords) {
      const left = (lastQueried(ctx)?.activities ?? []).filter((a) => inWords.remaining_ids.includes(a.id));
      const [kind] = clusterActivities(left);
      return nextGroup(
        ctx,
        left.length > 0 ? '(offline) Now the rest of that card.' : '(offline) That card is decided.',
        kind ? { kind: kind.kind, activities: left } : undefined,
      );
    }
    if (!picked.success) {
      const lead = '(offline) No pick, so those stay quarantined for now.';
      // The last group's question stays open in the chat: a letter typed next still applies.
      if (remainingClusters(ctx).length === 0)
        return { text: `${lead} Type a letter if you decide, or say stop.` };
      return nextGroup(ctx, lead);
    }
    const { choice, label, activity_ids, updates } = picked.data;
    return {
      text: `(offline) ${choice}: applying it to ${activity_ids.length === 1 ? 'the item' : `all ${activity_ids.length}`}.`,
      calls: [
        { name: 'update_activities', input: toJson({ activity_ids, updates }) },
        lesson(ctx, label ?? choice, activity_ids),
      ],
    };
  },
};

export const confirmBatch: OfflineRule = {
  name: 'concierge: confirm the batch update, then the next group',
  when: (ctx) => ctx.resultOf('update_activities') !== undefined,
  reply: (ctx) => {
    const result = ctx.resultOf('update_activities');
    let lead: string;
    if (!result || result.isError) lead = `(offline) That update did not go through: ${result?.content}.`;
    else {
      const done = z.object({ updated_count: z.number() }).safeParse(result.data).data;
      const updates = UpdatesInputSchema.safeParse(objectField(result.input, 'updates')).data;
      const tier = updates?.classification?.autonomy_tier;
      lead = `(offline) Done: ${done?.updated_count ?? 0} updated${updates?.status ? `, now ${updates.status}` : ''}${tier ? `, Tier ${tier}` : ''}.`;
    }
    // Beside an open card (a side quest), picks per sender: what was applied in all, and the card
    // comes back for what is left after this reply.
    if (openCardIn(ctx.request.system) !== undefined) {
      const applied = ctx.toolResults
        .filter((r) => r.name === 'update_activities' && !r.isError)
        .reduce(
          (sum, r) =>
            sum + (z.object({ updated_count: z.number() }).safeParse(r.data).data?.updated_count ?? 0),
          0,
        );
      return { text: result && !result.isError ? `(offline) Done: ${applied} updated.` : lead };
    }
    return inInterview(ctx) ? nextGroup(ctx, lead) : { text: lead };
  },
};

/** Asking to sort what is new ("sort my new items"): classify_pending. */
const SORT_NEW = /\b(sort|classify|pending|new)\b/i;
/**
 * Asking to go through the inbox ("can you go through my inbox?", "look at my emails", "go through
 * them with me" after it said what it can do): the interview, which is the concierge's work,
 * unless the words ask to sort what is new.
 */
const GO_THROUGH =
  /\b(?:go(?:ing)? (?:through|over)|look (?:at|through|over)|check|help (?:me )?with)\b.*\b(?:inbox|e-?mails?|mail|messages|items)\b|\b(?:go(?:ing)? (?:through|over)|look (?:at|through|over))\s+(?:them|those|these)\b|\b(?:inbox|e-?mails?|mail)\b.*\b(?:go through|look at|check|help)\b/i;

/**
 * The inbox's trouble told rather than asked after ("my inbox is out of control", "I'm drowning in
 * emails"): the interview is the help for it.
 */
const INBOX_TROUBLE =
  /\b(?:inbox|e-?mails?|mail|newsletters)\b.*\b(?:out of control|a mess|a disaster|a nightmare|overflowing|chaos|too full|can'?t keep up|overwhelm\w*)|\b(?:drowning in|too many|so many|buried (?:in|under)|flooded with)\s+(?:\w+\s+)?(?:e-?mails?|mails?|newsletters)\b/i;

/** Asking what the concierge is for, or what "quarantined" means or why mail is, before anything is read. */
const WHAT_IS_THIS =
  /\b(?:what(?:'s| is| are| does)?|why|how come|explain|mean)\b.*\b(?:this|quarantin\w*|you do|concierge|for)\b/i;

/** What the interview is about, for someone who asks before it starts. */
const ABOUT_QUARANTINE =
  'Quarantined items are mails your inbox held back because it could not tell how much they matter to you. ' +
  'I go through them with you in small groups of alike items: for each group you pick how mail like it ' +
  'should be handled (archived, noted, or shown to you), and I remember it for next time.';

export const startReviewRule: OfflineRule = {
  name: 'concierge: a question about quarantined items opens the interview',
  when: (ctx) =>
    inOverview(ctx) &&
    fresh(ctx) &&
    (/quarantin|review/i.test(ctx.userText) ||
      ((GO_THROUGH.test(ctx.userText) || INBOX_TROUBLE.test(ctx.userText)) && !SORT_NEW.test(ctx.userText))),
  reply: (ctx) => {
    const ids = [...new Set(ctx.userText.match(ID) ?? [])];
    const input: Json = ids.length ? { activity_ids: ids } : {};
    const about = WHAT_IS_THIS.test(ctx.userText) ? `${ABOUT_QUARANTINE} ` : '';
    return {
      text: `(offline) ${about}Let's go through them together.`,
      calls: [{ name: 'start_review', input }],
    };
  },
};

export const reviewFinished: OfflineRule = {
  name: 'concierge: back in the overview after the interview',
  when: (ctx) => inOverview(ctx) && fresh(ctx) && ctx.userText.startsWith(REVIEW_FINISHED),
  reply: (ctx) => {
    const recap = recapIn(ctx.userText);
    return { text: recap ? `(offline) The review is over. ${recap}` : '(offline) The review is over.' };
  },
};

export const sortPending: OfflineRule = {
  name: 'concierge: sort pending items by the rules',
  when: (ctx) => inOverview(ctx) && fresh(ctx) && SORT_NEW.test(ctx.userText),
  reply: () => ({
    text: '(offline) Sorting your new items by the rules…',
    calls: [{ name: 'classify_pending', input: {} }],
  }),
};

export const reportSorted: OfflineRule = {
  name: 'concierge: report what classify_pending did',
  when: (ctx) => ctx.resultOf('classify_pending') !== undefined,
  reply: (ctx) => {
    const result = ctx.resultOf('classify_pending');
    if (!result || result.isError) return { text: `(offline) Sorting failed: ${result?.content}.` };
    const report = z
      .object({
        classified: z.number(),
        by_status: z.record(z.string(), z.number()),
        quarantined: z.array(z.string()),
      })
      .safeParse(result.data).data;
    if (!report || report.classified === 0) return { text: '(offline) Nothing new to sort.' };
    const parts = Object.entries(report.by_status).map(([status, n]) => `${n} ${status}`);
    const next = report.quarantined.length
      ? ' Say “review my quarantined items” to decide the unclear ones.'
      : '';
    return { text: `(offline) Sorted ${report.classified}: ${parts.join(', ')}.${next}` };
  },
};

/** Asked outside a card, how a pick is taken back (at a card, the aside says it: ./offline-aside). */
export const howToTakeBack: OfflineRule = {
  name: 'concierge: say how a pick is taken back',
  when: (ctx) => inOverview(ctx) && fresh(ctx) && TAKE_BACK.test(ctx.userText),
  reply: () => ({ text: `(offline) ${HOW_TO_TAKE_BACK}` }),
};

/** Asking after the review just ended: "what did you just do?", "how many are left?". */
const ASKS_WHAT_CHANGED =
  /\b(?:what (?:did|have) you (?:just )?(?:do|done|change|changed)|what (?:has )?changed|what happened|how many (?:are |items )?(?:left|still)|what(?:'s| is) (?:left|still quarantined)|still quarantined)\b/i;

/** Asked after a review what it did or left, the recap it ended with, as the overview's prompt has it. */
export const whatTheReviewChanged: OfflineRule = {
  name: 'concierge: say what the last review changed and left',
  when: (ctx) =>
    inOverview(ctx) && fresh(ctx) && ASKS_WHAT_CHANGED.test(ctx.userText) && recapInPrompt(ctx) !== null,
  reply: (ctx) => ({ text: `(offline) In the last review: ${recapInPrompt(ctx) ?? ''}` }),
};

/** The recap of the review that ended last, from the overview's prompt ("What it changed: …"). */
function recapInPrompt(ctx: OfflineContext): string | null {
  return /^What it changed:\n([\s\S]+)$/m.exec(ctx.request.system)?.[1]?.trim() || null;
}

export const introduce: OfflineRule = {
  name: 'concierge: say what the offline concierge can do',
  when: (ctx) => inOverview(ctx) && fresh(ctx),
  reply: () => ({
    text: '(offline) I am the concierge, running on the offline model (no API key), so I follow simple rules. I can review your quarantined items with you (“review my quarantined items”) or sort new ones (“sort my new items”).',
  }),
};

/** In the order the offline model asks them, before its defaults. */
export const CONCIERGE_OFFLINE_RULES: readonly OfflineRule[] = [
  stopAside,
  splitPickAside,
  samePickAside,
  answerAside,
  setQuestionAsideRule,
  typedPick,
  stopReview,
  readQuarantine,
  offerFirstGroup,
  applyPick,
  confirmBatch,
  reportSorted,
  tellInbox,
  reviewFinished,
  howToTakeBack,
  whatTheReviewChanged,
  newReadingOfASender,
  startReviewRule,
  readInbox,
  sortPending,
  introduce,
];
