import type { Activity, ActivityStatus, Classification, Person } from '@sweatpants/domain';

/** What the deterministic classifier decided for one pending activity. */
export interface Verdict {
  status: ActivityStatus;
  classification: Classification;
}

/** Below this confidence the classifier does not act: the item is quarantined for the user. */
export const QUARANTINE_BELOW = 0.6;

const NEWSLETTER = /\b(newsletter|digest|unsubscribe|issue \d+|weekly)\b/i;
const RECEIPT = /\b(receipt|order|shipped|invoice|delivered)\b/i;
const URGENT = /\b(urgent|asap|today|tomorrow|by (monday|tuesday|wednesday|thursday|friday))\b/i;
const PERSONAL = new Set(['colleague', 'family', 'friend']);

/**
 * Seed 003's classifyPending for one activity, as rules rather than a model call: people the user
 * knows are surfaced, mailing lists archived, receipts from known vendors noted; anything the
 * rules are unsure of is quarantined, which is what the quarantine interview is for.
 */
export function classifyActivity(activity: Activity, people: readonly Person[]): Verdict {
  const sender = people.find((p) => p.email.toLowerCase() === activity.sender.toLowerCase());
  const text = `${activity.subject} ${activity.summary}`;
  if (sender && PERSONAL.has(sender.relationship)) {
    return verdict('surfaced', {
      activityType: sender.relationship === 'colleague' ? 'work-request' : 'personal',
      urgency: URGENT.test(text) ? 'high' : 'normal',
      autonomyTier: 3,
      confidence: 0.9,
      personas: [sender.relationship],
      reasoning: `From ${sender.name} (${sender.relationship}): people you know are shown to you.`,
      suggestedActions: ['reply'],
    });
  }
  if (NEWSLETTER.test(text)) {
    return verdict('archived', {
      activityType: 'newsletter',
      urgency: 'low',
      autonomyTier: 1,
      confidence: 0.85,
      reasoning: 'A mailing list (a digest or an unsubscribe link): archived without asking.',
      suggestedActions: ['archive'],
    });
  }
  if (sender?.relationship === 'vendor' && RECEIPT.test(text)) {
    return verdict('processed', {
      activityType: 'receipt',
      urgency: 'low',
      autonomyTier: 2,
      confidence: 0.8,
      personas: ['shopper'],
      reasoning: `A receipt or delivery note from ${sender.name}, a shop you buy from: noted, not surfaced.`,
      suggestedActions: ['file'],
    });
  }
  return verdict('quarantined', {
    activityType: sender ? sender.relationship : 'unknown',
    urgency: 'normal',
    autonomyTier: 3,
    confidence: 0.3,
    reasoning: sender
      ? `From ${sender.name}, but none of the rules fits: held for you to decide.`
      : 'From someone not in your people, and none of the rules fits: held for you to decide.',
    suggestedActions: ['review'],
  });
}

function verdict(status: ActivityStatus, fields: Partial<Classification>): Verdict {
  return {
    status: (fields.confidence ?? 0) < QUARANTINE_BELOW ? 'quarantined' : status,
    classification: {
      activityType: 'unknown',
      urgency: 'normal',
      autonomyTier: 3,
      confidence: 0,
      personas: [],
      reasoning: '',
      suggestedActions: [],
      optionFraming: '',
      ...fields,
    },
  };
}
