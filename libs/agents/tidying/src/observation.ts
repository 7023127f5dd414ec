import * as z from 'zod';
import { DispositionSchema } from '@sweatpants/domain';
import {
  allOf,
  mkAnxietyTrigger,
  mkCategoryName,
  mkItemName,
  mkLocation,
  mkSpaceFunction,
  orNull,
  parseChaosLevel,
  CHAOS_LEVELS,
  type AnxietyTrigger,
  type Assignment,
  type CategoryName,
  type ChaosLevel,
  type ItemName,
  type Location,
  type SpaceFunction,
} from './tidying-types';
import type { NonEmpty } from './session-state';

/**
 * What the OODA loop observes and orients by (seed 000): the photo analysis from vision, and the
 * facts extracted from the user's words. The schemas are what the model fills in (as a tool's
 * input); the parsers turn them into typed values at the boundary.
 */

export interface PhotoAnalysis {
  roomType: string;
  chaosLevel: ChaosLevel;
  visibleItems: readonly ItemName[];
  /** what the mess stops the user doing: "can't sit at the desk" */
  blockedFunction: string | null;
  /** the best first thing to address */
  firstTarget: ItemName | null;
}

export const PhotoAnalysisSchema = z.object({
  roomType: z.string().describe('office, bedroom, kitchen, ...'),
  // a string, parsed by parseChaosLevel: a model that says "Cluttered" still means cluttered
  chaosLevel: z.string().describe(`how buried the space is: one of ${CHAOS_LEVELS.join(', ')}`),
  visibleItems: z.array(z.string()).describe('the things you can see, most prominent first'),
  blockedFunction: z.string().nullable().describe('what the mess stops the user doing, if anything'),
  firstTarget: z.string().nullable().describe('the best first thing to pick up'),
});

export function parsePhotoAnalysis(value: unknown): PhotoAnalysis | null {
  const parsed = PhotoAnalysisSchema.safeParse(value);
  if (!parsed.success) return null;
  const chaos = parseChaosLevel(parsed.data.chaosLevel);
  if (!chaos.ok) return null;
  const blocked = parsed.data.blockedFunction?.trim();
  return {
    roomType: parsed.data.roomType.trim() || 'room',
    chaosLevel: chaos.value,
    visibleItems: allOf(parsed.data.visibleItems, mkItemName),
    blockedFunction: blocked ? blocked : null,
    firstTarget: orNull(mkItemName(parsed.data.firstTarget ?? '')),
  };
}

export const INTENTS = ['start', 'continue', 'item', 'decided', 'undo', 'help', 'stop', 'restart'] as const;
export type Intent = (typeof INTENTS)[number];
export const CHOICES = ['trash', 'keep', 'place', 'unsure'] as const;
export type Choice = (typeof CHOICES)[number];

/** A further thing decided in the same words as the first: "…and the lamp on the nightstand". */
export interface DecidedToo {
  item: ItemName;
  choice: Choice;
  place: Location | null;
}

export interface Extract {
  intent: Intent;
  item: ItemName | null;
  /** the other things the words name, beyond `item`, in their order: they are still to come */
  also: readonly ItemName[];
  /** the things after `item` the words decide too, in their order: each is sorted with it */
  alsoDecided: readonly DecidedToo[];
  choice: Choice | null;
  place: Location | null;
  function: SpaceFunction | null;
  anchors: readonly ItemName[] | null;
  /** a topic the user said made them anxious (the seed's lastAnxiety, now extracted) */
  anxiety: AnxietyTrigger | null;
}

/**
 * Where the item the words name should go, proposed in the same call that reads them, so a named
 * item's card needs no second call: your best guess first, then alternatives.
 */
export const ProposalSchema = z.object({
  choices: z
    .array(z.object({ label: z.string().min(1), disposition: DispositionSchema }))
    .min(1)
    .describe('where the item should go: your best guess first, then alternatives'),
  reason: z.string().optional().describe('why you propose the first choice, in a few words'),
});
export type Proposal = z.infer<typeof ProposalSchema>;

export const ExtractSchema = z.object({
  intent: z
    .enum(INTENTS)
    .describe(
      'start: ready to begin; continue: go on; item: names a thing; decided: said what to do with it; undo: takes back what they last decided; help: stuck; stop: wants to end; restart: asks for a new session from scratch (start over, another room)',
    ),
  item: z.string().nullable().describe('the item the user mentions, if any'),
  also: z
    .array(z.string())
    .nullable()
    .optional()
    .describe('the other things the user names beyond item, in their order (a list of things), if any'),
  alsoDecided: z
    .array(
      z.object({
        item: z.string(),
        choice: z.enum(CHOICES),
        place: z.string().nullable().optional(),
      }),
    )
    .nullable()
    .optional()
    .describe(
      'when they decide more than one thing at once: each thing after item, with its choice and place',
    ),
  choice: z.enum(CHOICES).nullable().describe('what the user decided for the item, if anything'),
  place: z.string().nullable().describe('where the item goes, if they said'),
  function: z.string().nullable().describe('what the space is FOR, if they said'),
  anchors: z.array(z.string()).nullable().describe('things that definitely stay, if they said'),
  anxiety: z.string().nullable().describe('a thing or topic that makes the user anxious, if they showed it'),
  proposal: ProposalSchema.nullable()
    .optional()
    .describe('when the intent is item: where that item should go (see the guide); otherwise null'),
});

/** The proposal a reading came with; null when there is none, or it does not fit. */
export function parseProposal(value: unknown): Proposal | null {
  const parsed = z.object({ proposal: ProposalSchema }).safeParse(value);
  return parsed.success ? parsed.data.proposal : null;
}

/** An extract that says nothing: what the loop goes on with when extraction fails (seed's fallback). */
export const CONTINUE_EXTRACT: Extract = {
  intent: 'continue',
  item: null,
  also: [],
  alsoDecided: [],
  choice: null,
  place: null,
  function: null,
  anchors: null,
  anxiety: null,
};

export function parseExtract(value: unknown): Extract | null {
  const parsed = ExtractSchema.safeParse(value);
  if (!parsed.success) return null;
  const e = parsed.data;
  const alsoDecided = decidedToo(e.alsoDecided ?? []).filter((d) => d.item !== e.item);
  return {
    intent: e.intent,
    item: orNull(mkItemName(e.item ?? '')),
    also: allOf(e.also ?? [], mkItemName).filter(
      (thing) => thing !== e.item && !alsoDecided.some((d) => d.item === thing),
    ),
    alsoDecided,
    choice: e.choice,
    place: orNull(mkLocation(e.place ?? '')),
    function: orNull(mkSpaceFunction(e.function ?? '')),
    anchors: e.anchors === null ? null : allOf(e.anchors, mkItemName),
    anxiety: orNull(mkAnxietyTrigger(e.anxiety ?? '')),
  };
}

/** The further decisions read back; one that names no thing, or a place choice with no place, is left out. */
function decidedToo(
  read: readonly { item: string; choice: Choice; place?: string | null | undefined }[],
): DecidedToo[] {
  return read.flatMap((d) => {
    const item = mkItemName(d.item);
    const place = orNull(mkLocation(d.place ?? ''));
    if (!item.ok || (d.choice === 'place' && place === null)) return [];
    return [{ item: item.value, choice: d.choice, place }];
  });
}

/** The unsure pile split by what its things have in common (seed 000's emergent categories). */
export const GroupingSchema = z.object({
  categories: z
    .array(
      z.object({
        name: z.string().describe('a few plain words drawn from the things in it'),
        items: z.array(z.string()).describe('the things in this pile, named as listed'),
      }),
    )
    .min(1)
    .max(5),
});

/**
 * A grouping of `items` read back: the categories named (biggest first) and which item goes in
 * which. Null when it names no category, or places fewer than half of the items: a grouping that
 * misses so much is no grouping (the split goes by kind then).
 */
export function parseGrouping(
  value: unknown,
  items: readonly ItemName[],
): { categories: NonEmpty<CategoryName>; assignment: Assignment } | null {
  const parsed = GroupingSchema.safeParse(value);
  if (!parsed.success) return null;
  const byName = new Map(items.map((i) => [i.toLowerCase(), i]));
  const assignment: Record<string, CategoryName> = {};
  const sizes = new Map<CategoryName, number>();
  for (const group of parsed.data.categories) {
    const name = mkCategoryName(group.name);
    if (!name.ok) continue;
    for (const listed of group.items) {
      const item = byName.get(listed.trim().toLowerCase());
      if (item === undefined || assignment[item] !== undefined) continue;
      assignment[item] = name.value;
      sizes.set(name.value, (sizes.get(name.value) ?? 0) + 1);
    }
  }
  const [first, ...rest] = [...sizes.keys()].sort((a, b) => (sizes.get(b) ?? 0) - (sizes.get(a) ?? 0));
  if (first === undefined || Object.keys(assignment).length * 2 < items.length) return null;
  return { categories: [first, ...rest], assignment };
}
