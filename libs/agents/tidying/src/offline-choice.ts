/**
 * What the offline reading of a tidying message says the words decide for a thing, once where they
 * send it is read (./offline-places): binned, put off, taken to a place, or kept here.
 */

/** What the words decide for a thing: 'trash', 'unsure', 'place' or 'keep'; null for no decision. */
export function choiceIn(t: string, place: string | null, phase: string): string | null {
  // ("junk mail" and "bin bags" are things, not what is done with them)
  if (
    /\b(trash|bin|toss|throw (?:it |them )?(?:out|away)|garbage|rubbish|junk)\b(?! (?:mail|drawer|food|bags?|liners?)\b)/.test(
      t,
    )
  )
    return 'trash';
  // "the broken crayons can go", "get rid of it": gone, with nowhere said
  if (
    /\b(?:get rid of|chuck|ditch)\b|\b(?:can|could|should|may) (?:all )?go(?: away| now)?(?=[,.!]|$)/.test(t)
  )
    return 'trash';
  if (/\b(not sure|unsure|maybe|idk|dunno|not now|skip)\b/.test(t)) return 'unsure';
  // "I'll deal with the paperwork tomorrow": put off, as "Not now" would
  if (
    /\b(?:deal with|sort|do|look at|go through)\s+(?:it|them|that|those|the\s+[a-z ]+?)\s+(?:later|tomorrow|another (?:day|time)|at the weekend|next week)\b/.test(
      t,
    )
  )
    return 'unsure';
  // "never mind the cup", "forget about them": put off, as "Not now" would
  if (/\b(?:never ?mind|forget(?: about)?) (?:it|them|that|those|the\b)/.test(t)) return 'unsure';
  if (place) return 'place';
  // "bills I need to pay": kept at hand, to be dealt with
  return /\b(?:keep\b(?! going)|stays?\b|staying\b|(?:i|we) (?:still )?(?:need|have|want) to (?:pay|read|sign|answer|reply to|deal with|file|fill in|fix|use|wear|keep)\b)/.test(
    t,
  ) && phase !== 'surveying'
    ? 'keep'
    : null;
}
