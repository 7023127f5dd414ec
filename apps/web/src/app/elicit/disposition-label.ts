import type { Disposition } from '@sweatpants/domain';

/** A place that says how a thing is put there: "in the wardrobe", "on the shelf". */
const PREPOSITION = /^(?:in|into|inside|on|onto|under|by|at|behind|beside|next to|back in|back on)\s/i;

/** Another room, where a thing is taken to: "office", "the kitchen", "the spare room". */
const ROOM =
  /^(?:the |my )?(?:kitchen|office|study|bedroom|bathroom|hallway|hall|garage|shed|attic|loft|basement|cellar|lounge|[a-z]+ room)$/i;

/** A place that is where the thing already is. */
const HERE = /^(?:(?:right|just) )?here$|^where it is$/i;

/** How a disposition reads on a card and in an answered question. */
export function dispositionLabel(disposition: Disposition): string {
  switch (disposition.kind) {
    case 'place':
      // kept where it is ("keep it" typed at a card): "Put in here" would not read
      if (HERE.test(disposition.location.trim())) return 'Keep it here';
      // someone else's ("they're my partner's"): back to them, not "Put in your partner"
      if (/^your [a-z]+$/i.test(disposition.location.trim())) return `Back to ${disposition.location.trim()}`;
      // another room ("they go back to the office"): taken there, not "Put in office"
      if (ROOM.test(disposition.location.trim()))
        return `Take to the ${disposition.location.trim().replace(/^(?:the|my) /i, '')}`;
      // "in the wardrobe", "on the shelf" say how already: "Put in in the wardrobe" would not read.
      return PREPOSITION.test(disposition.location)
        ? `Put ${disposition.location}`
        : `Put in ${disposition.location}`;
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

/** The dispositions a correction can pick without typing; `place` needs a location typed in. */
export const SIMPLE_DISPOSITIONS: readonly Disposition[] = [
  { kind: 'trash' },
  { kind: 'donate' },
  { kind: 'recycle' },
  { kind: 'skip' },
  { kind: 'need-more-info' },
];
