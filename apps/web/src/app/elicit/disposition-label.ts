import type { Disposition } from '@sweatpants/domain';

/** A place that says how a thing is put there: "in the wardrobe", "on the shelf". */
const PREPOSITION = /^(?:in|into|inside|on|onto|under|by|at|behind|beside|next to|back in|back on)\s/i;

/** Another room, where a thing is taken to: "office", "the kitchen", "the spare room". */
const ROOM =
  /^(?:the |my )?(?:kitchen|office|study|bedroom|bathroom|hallway|hall|garage|shed|attic|loft|basement|cellar|lounge|[a-z]+ room)$/i;

/** A place away from home a thing is taken to: "the repair shop", "the tip", "the pharmacy". */
const AWAY =
  /^(?:the |my )?(?:[a-z]+ )?(?:shop|tip|dump|centre|center|post office|school|library|pharmacy|chemist'?s?)$/i;

/** Where things go on top, not inside: "Put on the shelf", not "Put in the shelf". */
const SURFACE =
  /\b(?:shelf|shelves|desk|table|nightstand|counter|worktop|windowsill|sill|dresser|sideboard|rack|hooks?|mantelpiece|pile)$/i;

/** A place that is where the thing already is. */
const HERE = /^(?:(?:right|just) )?here$|^where it is$/i;

/** How a disposition reads on a card and in an answered question. */
export function dispositionLabel(disposition: Disposition): string {
  switch (disposition.kind) {
    case 'place':
      return placeLabel(disposition.location.trim());
    case 'trash':
      return 'Trash';
    case 'donate':
      return 'Donate';
    case 'recycle':
      return 'Recycle';
    case 'skip':
      return 'Skip for now';
    case 'need-more-info':
      return 'Not sure yet';
  }
}

/** How a place a thing goes to reads: "Keep it here", "To your partner", "Put on the shelf". */
function placeLabel(location: string): string {
  // kept where it is ("keep it" typed at a card): "Put in here" would not read
  if (HERE.test(location)) return 'Keep it here';
  // someone's ("they're my partner's", "give them to my brother"): to them, not "Put in your partner"
  if (/^your [a-z]+$/i.test(location)) return `To ${location}`;
  // another room ("they go back to the office"), or a place away ("the repair shop"): taken there,
  // not "Put in office"
  if (ROOM.test(location) || AWAY.test(location))
    return `Take to the ${location.replace(/^(?:the|my) /i, '')}`;
  // "in the wardrobe", "on the shelf" say how already: "Put in in the wardrobe" would not read.
  if (PREPOSITION.test(location)) return `Put ${location}`;
  // ("the shelf", "sell pile": on it, not in it)
  const bare = location.replace(/^the /i, '');
  return SURFACE.test(bare) ? `Put on the ${bare}` : `Put in ${location}`;
}

/** The dispositions a correction can pick without typing; `place` needs a location typed in. */
export const SIMPLE_DISPOSITIONS: readonly Disposition[] = [
  { kind: 'trash' },
  { kind: 'donate' },
  { kind: 'recycle' },
  { kind: 'skip' },
  { kind: 'need-more-info' },
];
