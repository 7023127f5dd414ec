import { err, ok, type Result } from '@sweatpants/domain';
import * as z from 'zod';

/**
 * The tidying coach's words (seed 000's newtypes): each is a string that went through its smart
 * constructor, so an item name can never be passed where a location is expected, and none is
 * ever blank or padded.
 */
type Branded<B extends string> = string & z.$brand<B>;

/** Something being sorted: "coffee mug". */
export type ItemName = Branded<'ItemName'>;
/** Where something goes: "kitchen shelf". */
export type Location = Branded<'Location'>;
/** What the space is FOR: "working". */
export type SpaceFunction = Branded<'SpaceFunction'>;
/** A topic that made the user anxious: "old letters". */
export type AnxietyTrigger = Branded<'AnxietyTrigger'>;
/** An emergent category of the unsure pile: "papers". */
export type CategoryName = Branded<'CategoryName'>;

export interface BlankText {
  code: 'blank';
  message: string;
}

/** A word's smart constructor: trimmed, and never blank. */
function brandOf<S extends z.ZodType<string, string>>(schema: S, kind: string) {
  return (text: string): Result<z.output<S>, BlankText> => {
    const parsed = schema.safeParse(text);
    return parsed.success ? ok(parsed.data) : err({ code: 'blank', message: `${kind} cannot be blank` });
  };
}

const WORDS = z.string().trim().min(1);
export const mkItemName = brandOf(WORDS.brand<'ItemName'>(), 'an item name');
export const mkLocation = brandOf(WORDS.brand<'Location'>(), 'a location');
export const mkSpaceFunction = brandOf(WORDS.brand<'SpaceFunction'>(), 'a space function');
export const mkAnxietyTrigger = brandOf(WORDS.brand<'AnxietyTrigger'>(), 'an anxiety trigger');
export const mkCategoryName = brandOf(WORDS.brand<'CategoryName'>(), 'a category name');

/** The value of a constructor's result, or null for blank text: for optional fields. */
export function orNull<T>(made: Result<T, BlankText>): T | null {
  return made.ok ? made.value : null;
}

/** Every non-blank text of a list, constructed; blanks are dropped. */
export function allOf<T>(texts: readonly string[], mk: (text: string) => Result<T, BlankText>): T[] {
  return texts.flatMap((text) => {
    const made = mk(text);
    return made.ok ? [made.value] : [];
  });
}

/** How buried the space looks in a photo (seed 000's ChaosLevel). */
export const CHAOS_LEVELS = ['buried', 'cluttered', 'moderate', 'clear'] as const;
export type ChaosLevel = (typeof CHAOS_LEVELS)[number];

/** Parses a chaos level at the boundary (a model's answer, a stored event): any case, trimmed. */
export function parseChaosLevel(
  text: string,
): Result<ChaosLevel, { code: 'unknown_chaos_level'; message: string }> {
  const level = z.enum(CHAOS_LEVELS).safeParse(text.trim().toLowerCase());
  return level.success
    ? ok(level.data)
    : err({ code: 'unknown_chaos_level', message: `"${text}" is not one of ${CHAOS_LEVELS.join(', ')}` });
}

/**
 * Which category each unsure item goes in, where the categories were drawn from the person's own
 * items (seed 000's emergent categories); an item it does not name goes by its kind.
 */
export type Assignment = Readonly<Record<string, CategoryName>>;

/** An assignment read back from the wire: each item's category, where it is one. */
export function assignmentOf(wire: Readonly<Record<string, string>> | undefined): Assignment {
  const assignment: Record<string, CategoryName> = {};
  for (const [item, category] of Object.entries(wire ?? {})) {
    const name = mkCategoryName(category);
    if (name.ok) assignment[item] = name.value;
  }
  return assignment;
}
