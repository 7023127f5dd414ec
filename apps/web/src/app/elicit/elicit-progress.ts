import type { Json } from '@sweatpants/domain';

/**
 * Where a question's widget reports what it is doing before it answers (a location being
 * acquired, say): the page that shows the question sends it on as `elicit:progress`, and the
 * agent that asked hears it (seed 004's progress streams). Absent where nothing listens. A widget
 * reports without saying which question it answers: the card around it names its question
 * (`elicitId`), for a page where several wait at once.
 */
export abstract class ElicitProgress {
  abstract report(payload: Json, elicitId?: string): void;
}
