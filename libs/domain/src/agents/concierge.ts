import * as z from 'zod';

/**
 * The concierge's world (seed 003): activities (an email, a notice, a receipt) that it sorts for
 * one user, and the people they come from. Shared by the agent, the api's store and the client.
 */

/** Where an activity stands: new, shown to the user, held for the user's judgement, done, put away. */
export const ACTIVITY_STATUSES = ['pending', 'surfaced', 'quarantined', 'processed', 'archived'] as const;
export const ActivityStatusSchema = z.enum(ACTIVITY_STATUSES);
export type ActivityStatus = z.infer<typeof ActivityStatusSchema>;

export const UrgencySchema = z.enum(['low', 'normal', 'high']);
export type Urgency = z.infer<typeof UrgencySchema>;

/** 1: the concierge acts alone (auto-archive); 2: it acts and notes it; 3: the user reviews. */
export const AutonomyTierSchema = z.number().int().min(1).max(3);

/** How the concierge reads an activity (seed 003's classification). */
export const ClassificationSchema = z.object({
  activityType: z.string().min(1),
  urgency: UrgencySchema,
  autonomyTier: AutonomyTierSchema,
  confidence: z.number().min(0).max(1),
  personas: z.array(z.string()),
  reasoning: z.string(),
  suggestedActions: z.array(z.string()),
  /** the options the user was offered when the classification was theirs to make */
  optionFraming: z.string(),
});
export type Classification = z.infer<typeof ClassificationSchema>;

/** Partial updates are allowed (seed 003): the fields given replace, the rest stay. */
export const PartialClassificationSchema = ClassificationSchema.partial();
export type PartialClassification = z.infer<typeof PartialClassificationSchema>;

/** What a new, unread activity carries until it is classified. */
export const UNCLASSIFIED: Classification = {
  activityType: 'unknown',
  urgency: 'normal',
  autonomyTier: 3,
  confidence: 0,
  personas: [],
  reasoning: '',
  suggestedActions: [],
  optionFraming: '',
};

export const ActivitySchema = z.object({
  id: z.string().min(1),
  /** 'email', 'calendar', ... */
  source: z.string().min(1),
  /** the sender's address */
  sender: z.string().min(1),
  senderName: z.string(),
  subject: z.string(),
  summary: z.string(),
  receivedAt: z.iso.datetime({ offset: true }),
  status: ActivityStatusSchema,
  classification: ClassificationSchema,
});
export type Activity = z.infer<typeof ActivitySchema>;

export const PersonSchema = z.object({
  id: z.string().min(1),
  email: z.string().min(1),
  name: z.string(),
  /** 'colleague', 'family', 'vendor', 'service', ... */
  relationship: z.string(),
  notes: z.string(),
});
export type Person = z.infer<typeof PersonSchema>;

export const DEFAULT_QUERY_LIMIT = 20;
export const MAX_QUERY_LIMIT = 200;

/** Which activities to read; every field narrows, none means all (up to the limit). */
export const ActivityFilterSchema = z.object({
  status: ActivityStatusSchema.optional(),
  ids: z.array(z.string().min(1)).optional(),
  /** the classification's activity type */
  type: z.string().min(1).optional(),
  /** a case-insensitive part of the sender, its name, the subject or the summary */
  text: z.string().min(1).optional(),
  /** received after */
  since: z.iso.datetime({ offset: true }).optional(),
  limit: z.number().int().min(1).max(MAX_QUERY_LIMIT).optional(),
});
export type ActivityFilter = z.infer<typeof ActivityFilterSchema>;

/** Which people to read: `email` matches exactly (ignoring case), `search` a part of email or name. */
export const PeopleFilterSchema = z.object({
  email: z.string().min(1).optional(),
  search: z.string().min(1).optional(),
  limit: z.number().int().min(1).max(MAX_QUERY_LIMIT).optional(),
});
export type PeopleFilter = z.infer<typeof PeopleFilterSchema>;

/** One change applied to a batch of activities. */
export const ActivityUpdatesSchema = z.object({
  status: ActivityStatusSchema.optional(),
  classification: PartialClassificationSchema.optional(),
});
export type ActivityUpdates = z.infer<typeof ActivityUpdatesSchema>;

/** What a batch update did. */
export interface ActivityUpdateResult {
  updatedCount: number;
  activityIds: string[];
}

/** The concierge's modes: the overview, and the quarantine interview. */
export const CONCIERGE_MODES = ['assistant', 'interview'] as const;
export const ConciergeModeSchema = z.enum(CONCIERGE_MODES);
export type ConciergeMode = z.infer<typeof ConciergeModeSchema>;

/**
 * What the quarantine interview applied to one item: the option the user picked (when the change
 * was a pick; null for a change the model made on its own words) and what the item became.
 */
export const ReviewDecisionSchema = z.object({
  /** the picked option's id ('B'), or null */
  optionId: z.string().nullable(),
  /** the option as its card showed it ("B. Promo from a vendor… → Tier 2"), or null */
  label: z.string().nullable(),
  /** the status applied, or null when the change left it */
  status: ActivityStatusSchema.nullable(),
  /** the classification's type applied, or null */
  activityType: z.string().nullable(),
  /** the autonomy tier applied, or null */
  autonomyTier: AutonomyTierSchema.nullable(),
});
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;

/** One item of the interview, in the order the interview read them. */
export const ReviewItemSchema = z.object({
  id: z.string(),
  /** the activity's subject (its id when the interview never read it) */
  title: z.string(),
  /** the sender's name or address ('' when unread) */
  from: z.string(),
  /** null while undecided (a dismissed question leaves the item quarantined and undecided) */
  decision: ReviewDecisionSchema.nullable(),
});
export type ReviewItem = z.infer<typeof ReviewItemSchema>;

/** The quarantine interview's progress: "2 of 5", and what each decision applied. */
export const ConciergeReviewSchema = z.object({
  items: z.array(ReviewItemSchema),
  /** how many items have a decision */
  done: z.number().int().min(0),
  /** how many items the interview is about */
  total: z.number().int().min(0),
  /**
   * what the interview learnt from the user's picks, a sentence each, oldest first (its mode's
   * structured output); absent from states folded before it learnt anything
   */
  learnt: z.array(z.string()).default([]),
});
export type ConciergeReview = z.infer<typeof ConciergeReviewSchema>;

/** The concierge's state at a node, as `GET .../state` serves it (PROTOCOL.md: at least `{mode}`). */
export const ConciergeStateSchema = z.object({
  mode: ConciergeModeSchema,
  /** the activities whose options are on the table */
  reviewing: z.array(z.string()),
  /** the last option the user picked, and what it was applied to */
  lastChoice: z
    .object({ optionId: z.string(), label: z.string(), activityIds: z.array(z.string()) })
    .nullable(),
  /** activities this conversation has updated */
  updated: z.number().int().min(0),
  /**
   * The current interview, or the last one once it is over (mode `assistant`); null before the
   * first. A new interview starts a new one.
   */
  review: ConciergeReviewSchema.nullable(),
  /**
   * The changes to activities that hold here: the update_activities calls on the path, by the id
   * of their call node. A runner opened at HEAD undoes this conversation's other changes (a
   * branch left by a rewind) and applies these again (one returned to).
   */
  changes: z.array(z.string()),
});
export type ConciergeState = z.infer<typeof ConciergeStateSchema>;
