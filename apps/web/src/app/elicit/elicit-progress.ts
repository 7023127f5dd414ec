import type { Json } from '@sweatpants/domain';

/**
 * Where a question's widget reports what it is doing before it answers (a location being
 * acquired, say): the page that shows the question sends it on as `elicit:progress`, and the
 * agent that asked hears it (seed 004's progress streams). Absent where nothing listens.
 */
export abstract class ElicitProgress {
  abstract report(payload: Json): void;
}
