import * as z from 'zod';

/**
 * The tidying coach's session state as `GET /api/conversations/:id/state` serves it (PROTOCOL.md):
 * the fold of the path's tidying events. Item names and places are plain strings on the wire; the
 * agent brands them. `phase` is derived from `phaseData` by the fold, never set on its own.
 */

/** The phases of a tidying session (seed 000), and `ended` once the user is done. */
export const TIDYING_PHASES = [
  'surveying',
  'sorting',
  'splitting',
  'refining',
  'decision-support',
  'ended',
] as const;
export const TidyingPhaseSchema = z.enum(TIDYING_PHASES);
export type TidyingPhase = z.infer<typeof TidyingPhaseSchema>;

/** What every phase after surveying knows: what the space is for, what stays, what worried the user. */
export const TidyingActiveSchema = z.object({
  function: z.string().min(1),
  anchors: z.array(z.string()),
  lastAnxiety: z.string().nullable(),
});
export type TidyingActive = z.infer<typeof TidyingActiveSchema>;

const SortingDataSchema = z.object({
  phase: z.literal('sorting'),
  active: TidyingActiveSchema,
  currentItem: z.string().nullable(),
});

const RefiningDataSchema = z.object({
  phase: z.literal('refining'),
  active: TidyingActiveSchema,
  /** category → the items still to go through in it */
  emergentCategories: z.record(z.string(), z.array(z.string())),
  currentCategory: z.string().min(1),
  currentItem: z.string().nullable(),
});

/** Each phase's own data (seed 000's PhaseData); the phase a stuck item returns to is kept whole. */
export const TidyingPhaseDataSchema = z.discriminatedUnion('phase', [
  z.object({
    phase: z.literal('surveying'),
    gatheredFunction: z.string().nullable(),
    gatheredAnchors: z.array(z.string()),
  }),
  SortingDataSchema,
  z.object({
    phase: z.literal('splitting'),
    active: TidyingActiveSchema,
    categories: z.array(z.string()).min(1),
    /** item → category, where the categories were drawn from the person's own items (absent: by kind) */
    assignment: z.record(z.string(), z.string()).optional(),
  }),
  RefiningDataSchema,
  z.object({
    phase: z.literal('decision-support'),
    active: TidyingActiveSchema,
    stuckItem: z.string().min(1),
    resume: z.discriminatedUnion('phase', [SortingDataSchema, RefiningDataSchema]),
  }),
  z.object({
    phase: z.literal('ended'),
    /** what the space was for, if the session got that far */
    function: z.string().nullable(),
    anchors: z.array(z.string()),
  }),
]);
export type TidyingPhaseData = z.infer<typeof TidyingPhaseDataSchema>;

export const TidyingPilesSchema = z.object({
  belongs: z.array(z.string()),
  out: z.array(z.string()),
  unsure: z.array(z.string()),
});
export type TidyingPiles = z.infer<typeof TidyingPilesSchema>;

export const TidyingStateSchema = z.object({
  phase: TidyingPhaseSchema,
  piles: TidyingPilesSchema,
  /** where each item of the out pile goes: a place elsewhere ("kitchen"), or trash, donation, recycling */
  destinations: z.record(z.string(), z.string()).default({}),
  /**
   * where in this space an item of the belongs pile goes, when the words said more than "here"
   * ("on the hook by the door"); absent from states folded before spots were kept
   */
  spots: z.record(z.string(), z.string()).default({}),
  /** the decided items (belongs and out), each counted once */
  itemsProcessed: z.number().int().min(0),
  /** the kind of room being tidied (from the photo analysis), which says whether a place is within it */
  room: z.string().nullable().default(null),
  /** what the space is for, once known */
  function: z.string().optional(),
  /**
   * the things the photos showed, in the order named: the coach goes through them one by one
   * (the ones on no pile yet are still to come)
   */
  seen: z.array(z.string()).default([]),
  /** things that definitely stay */
  anchors: z.array(z.string()),
  phaseData: TidyingPhaseDataSchema,
  /** when the first turn was decided (ISO-8601) */
  sessionStart: z.string().nullable(),
  /** true exactly when the phase is `ended` (the user stopped, or confirmed they are done) */
  ended: z.boolean(),
  /**
   * the things put on a pile, tapped or said, the last put last: what "undo that" takes back,
   * and said again, the one before
   */
  sortedOrder: z.array(z.string()).default([]),
});
export type TidyingState = z.infer<typeof TidyingStateSchema>;
