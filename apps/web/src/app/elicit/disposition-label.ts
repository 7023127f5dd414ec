import type { Disposition } from '@sweatpants/domain';

/** How a disposition reads on a card and in an answered question. */
export function dispositionLabel(disposition: Disposition): string {
  switch (disposition.kind) {
    case 'place':
      return `Put in ${disposition.location}`;
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
