import type { Activity } from '@sweatpants/domain';
import { optionNamedIn } from '@sweatpants/agent-runtime/offline';
import type { UpdatesInput } from './tool-inputs';

/** Quarantined activities that read alike, to be classified together. */
export interface Cluster {
  /** the classifier's guess they share ('promotion', 'newsletter', ...) */
  kind: string;
  activities: Activity[];
}

/** An option of the interview (seed 003): a reading of the items, never an instruction. */
export interface FramedOption {
  id: string;
  label: string;
  reason: string;
  updates: UpdatesInput;
}

/**
 * Groups activities by the type the classifier guessed, largest group first (then by kind, so the
 * order is stable): the interview offers one set of options per group.
 */
export function clusterActivities(activities: readonly Activity[]): Cluster[] {
  const byKind = new Map<string, Activity[]>();
  for (const activity of activities) {
    const kind = activity.classification.activityType;
    byKind.set(kind, [...(byKind.get(kind) ?? []), activity]);
  }
  return [...byKind.entries()]
    .map(([kind, members]) => ({ kind, activities: members }))
    .sort((a, b) => b.activities.length - a.activities.length || a.kind.localeCompare(b.kind));
}

/**
 * Seed 003's three readings of a cluster, each with the classification it would apply: A, a
 * marketing list (Tier 1, auto-archive); B, a promotion from a vendor (Tier 2, noted, not
 * surfaced); C, an update that matters (Tier 3, review). The letters stay the same for every
 * cluster so "B for all of these" always means the same thing.
 */
export function frameOptions(cluster: Cluster): FramedOption[] {
  const senders = [...new Set(cluster.activities.map((a) => a.senderName || a.sender))];
  const who = senders.length > 2 ? `${senders.slice(0, 2).join(', ')} and others` : senders.join(' and ');
  // "Trailgear sends", "Trailgear and Bookbarn send": the verb agrees with the senders named
  const many = senders.length > 1;
  const n = cluster.activities.length;
  const scope = n > 1 ? ` Applies to all ${n} of these.` : '';
  const framing = `A) marketing list, Tier 1 · B) vendor promotion, Tier 2 · C) important update, Tier 3 (for ${who})`;
  const option = (
    id: string,
    label: string,
    reason: string,
    status: 'archived' | 'processed' | 'surfaced',
    activityType: string,
    tier: number,
    action: string,
  ): FramedOption => ({
    id,
    label,
    reason: `${reason}${scope}`,
    updates: {
      status,
      classification: {
        activity_type: activityType,
        autonomy_tier: tier,
        urgency: tier === 3 ? 'normal' : 'low',
        confidence: 1,
        reasoning: `You chose ${id}: ${label}.`,
        suggested_actions: [action],
        option_framing: framing,
      },
    },
  });
  return [
    option(
      'A',
      'Newsletter from a marketing list → Tier 1 (auto-archive)',
      `If ${who} only ${many ? 'send' : 'sends'} bulk mail you never act on, I archive it without asking.`,
      'archived',
      'newsletter',
      1,
      'archive',
    ),
    option(
      'B',
      "Promo from a vendor you've bought from → Tier 2 (note, don't surface)",
      many
        ? `If ${who} are shops you use, I keep a note of their offers but do not show them to you.`
        : `If ${who} is a shop you use, I keep a note of its offers but do not show them to you.`,
      'processed',
      'promotion',
      2,
      'note',
    ),
    option(
      'C',
      'Important update from a service you use → Tier 3 (review)',
      `If mail from ${who} can change something for you, I show it to you every time.`,
      'surfaced',
      'service-update',
      3,
      'review',
    ),
  ];
}

/**
 * The letter each option's card shows, in order: an id that is already one letter or digit ('B')
 * is its own letter, so "type B" and the card agree; any other id ('archive') gets the first
 * letter from A on that no other option uses.
 */
export function optionLetters(optionIds: readonly string[]): string[] {
  const own = optionIds.map((id) => (/^[a-z0-9]$/i.test(id) ? id.toUpperCase() : undefined));
  const used = new Set(own.filter((l): l is string => l !== undefined));
  const free = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].filter((l) => !used.has(l));
  return own.map((letter) => letter ?? free.shift() ?? '');
}

/**
 * The label a card shows: its letter first ("B. Promo from a vendor…"), once, whether or not the
 * label already began with it ("B) Promo…", "B: Promo…").
 */
export function letteredLabel(letter: string, label: string): string {
  // Letters are one letter or digit (optionLetters), so they need no escaping in the pattern.
  const bare = label.replace(new RegExp(`^\\s*\\(?${letter}\\s*[).:\\-–]\\s*`, 'i'), '');
  return `${letter}. ${bare}`;
}

/** Options as their cards show them: each with its letter, and its label led by that letter. */
export function cardOptions<O extends { id: string; label: string }>(
  options: readonly O[],
): (O & { letter: string; shown: string })[] {
  const letters = optionLetters(options.map((o) => o.id));
  return options.map((o, i) => {
    const letter = letters[i] ?? '';
    return { ...o, letter, shown: letteredLabel(letter, o.label) };
  });
}

/**
 * The option a typed answer names ("B", "b for all of these", "option C please"), by its id or by
 * the letter its card shows (`letters`, in the order of `optionIds`); undefined when it names none
 * or more than one. The reading is the offline model's (`optionNamedIn`, what it does with words
 * typed while a card waits); the concierge's offline rules use it for a letter typed in the chat
 * after the card went away.
 */
export function readChoice(
  text: string,
  optionIds: readonly string[],
  letters: readonly string[] = optionLetters(optionIds),
): string | undefined {
  const cards = optionIds.map((id, i) => {
    const letter = letters[i];
    return { id, label: letter ? `${letter}. ${id}` : id };
  });
  return optionNamedIn(text, cards)?.id;
}
