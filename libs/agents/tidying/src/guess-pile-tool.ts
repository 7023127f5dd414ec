import { createTool, ToolSuccess } from '@sweatpants/agent-runtime';
import * as z from 'zod';
import { choicesFor } from './offline-guesses';
import { placementOf } from './pile-placement';

/**
 * The coach's rule of thumb, without asking anyone: what it would propose for an item, best guess
 * first, and which pile (belongs, out, unsure) that guess puts it on in a space it knows nothing
 * about. Other agents ask it (the donation helper checks an item is fit to give away); the coach's
 * own turns ask the person instead.
 */
export const guessPile = createTool('guess_pile')
  .description(
    'What the tidying coach would propose for an item, best guess first, and the pile it lands on.',
  )
  .parameter(
    z.object({ item: z.string().trim().min(1).max(200).describe('the item, as the person named it') }),
  )
  .execute(function* ({ item }) {
    const [best, ...others] = choicesFor(item);
    if (!best) return ToolSuccess({ item, guess: null, pile: 'unsure', alternatives: [] });
    const placement = placementOf(best.disposition, { room: null, function: null });
    return ToolSuccess({
      item,
      guess: best.disposition.kind,
      label: best.label,
      pile: placement.pile,
      ...(placement.pile === 'out' ? { destination: placement.destination } : {}),
      alternatives: others.map((o) => o.disposition.kind),
    });
  });
