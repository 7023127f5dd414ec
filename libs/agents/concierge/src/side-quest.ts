import type { ElicitRequest, TreeNode } from '@sweatpants/domain';
import { createContext, type Operation } from 'effection';
import * as z from 'zod';
import {
  Asides,
  Run,
  runTurn,
  waitingQuestionNote,
  type AgentDefinition,
  type TurnEnd,
} from '@sweatpants/agent-runtime';
import { activitiesUpdatedOf } from './review-events';
import { stopSaidAside } from './set-aside';
import { UpdatesInputSchema } from './tool-inputs';

/**
 * Seed 004's side quests in the concierge. Words typed while a card waits that do not pick an
 * option ("wait, what does tier 2 mean?") run one turn of their own (the runtime's side quest),
 * after which the same card is asked again. That turn is told which card is open and that its job
 * is to answer the words, not to move the interview on: it offers no other card and applies
 * nothing, so the user comes back to the card they left; unless the words stop the review ("I'm
 * done"), which sets the card aside (./set-aside).
 */

const CardSchema = z.object({
  elicitId: z.string(),
  message: z.string(),
  options: z.array(z.object({ id: z.string(), label: z.string(), description: z.string().optional() })),
});

/** The card a side quest runs beside: the question the user typed their own words at. */
export type OpenCard = z.infer<typeof CardSchema> & {
  /** what its call offered (the items it asks about, each option's updates) */
  offer?: CardOffer;
};

/** What the card's present_options call offered: its items, and each option's updates. */
export const CardOfferSchema = z.object({
  activity_ids: z.array(z.string()),
  options: z.array(z.object({ id: z.string(), label: z.string(), updates: UpdatesInputSchema })),
});
export type CardOffer = z.infer<typeof CardOfferSchema>;

/** Set while a side quest runs: the card that stays open until it ends. */
export const OpenCards = createContext<OpenCard | null>('concierge.open-card', null);

/** The line of the side quest's system prompt that names the open card, read back offline. */
export const OPEN_CARD_LINE = 'Open card: ';

/**
 * The card a side quest runs beside, when its question is one (a `choose` with options), with what
 * its call offered when `path` holds that call.
 */
export function openCardOf(question: ElicitRequest, path: readonly TreeNode[] = []): OpenCard | null {
  const options = 'options' in question.payload ? question.payload.options : [];
  const card = CardSchema.safeParse({ elicitId: question.elicitId, message: question.message, options });
  if (!card.success) return null;
  const offer = cardOffer(path);
  return offer ? { ...card.data, offer } : card.data;
}

/** What the side quest's model is told, below the mode's prompt. */
export function asideNote(card: OpenCard): string {
  const shown = { message: card.message, options: card.options };
  return [
    'A card of yours is waiting for the user to pick an option, and they typed words of their own',
    'instead: they do not pick one option for every item. Answer them in a few sentences; when they',
    'ask about the card (what an option or a tier means), explain it. Do not call present_options:',
    'the card stays open and is shown again right after your reply, and the user picks there. When',
    'their words pick options for some of its items by sender ("B for Trailgear, A for Bookbarn"),',
    "apply each with update_activities (that option's updates, for those items' ids only) and say",
    'what you applied: the card is then offered again for the items left. Only when they want to',
    'stop the review, call finish_review: the card is set aside, and the review ends after your reply.',
    `${OPEN_CARD_LINE}${JSON.stringify(shown)}`,
    ...(card.offer ? [`${CARD_OFFER_LINE}${JSON.stringify(card.offer)}`] : []),
  ].join('\n');
}

/** The line that says what the open card offered: its items, by id, and each option's updates. */
export const CARD_OFFER_LINE = 'Its items and options: ';

/** What the open card offered, as a side quest's system prompt says it. */
export function cardOfferIn(system: string): CardOffer | undefined {
  const line = new RegExp(`^${CARD_OFFER_LINE}(.+)$`, 'm').exec(system)?.[1];
  if (!line) return undefined;
  try {
    return CardOfferSchema.safeParse(JSON.parse(line)).data;
  } catch {
    return undefined;
  }
}

/** The open card a side quest's system prompt names, if it names one. */
export function openCardIn(system: string): Omit<OpenCard, 'elicitId'> | undefined {
  const line = new RegExp(`^${OPEN_CARD_LINE}(.+)$`, 'm').exec(system)?.[1];
  if (!line) return undefined;
  try {
    return CardSchema.omit({ elicitId: true }).safeParse(JSON.parse(line)).data;
  } catch {
    return undefined;
  }
}

/**
 * What the side quest's model is told about the question it runs beside: for a card, the card and
 * how the review goes on from it (see `asideNote`); for any other question, the runtime's note.
 */
export function conciergeAsideNote(question: ElicitRequest, path: readonly TreeNode[]): string {
  const card = openCardOf(question, path);
  return card ? asideNote(card) : waitingQuestionNote(question);
}

/**
 * The concierge's turn: the runtime's, which in a side quest is told about the open card
 * (`conciergeAsideNote`), and whose tools read that card from `OpenCards`.
 */
export function* conciergeTurn(agent: AgentDefinition): Operation<TurnEnd> {
  const aside = yield* Asides.expect();
  const run = yield* Run.expect();
  const card = aside ? openCardOf(aside.question, run.journal.path()) : null;
  if (!aside || !card) return yield* runTurn(agent);
  const before = run.journal.path().length;
  const end = yield* OpenCards.with(card, () => runTurn(agent));
  const said = run.journal.path().slice(before);
  // "I'm done" said at the card: the turn's finish_review set it aside, so it is not asked again.
  if (stopSaidAside(run.journal.path(), card.elicitId)) aside.settle({ action: 'decline' });
  // Words that picked for some of its items applied those: the card, as asked, no longer fits,
  // and its asker offers the items left (present_options reads which).
  else if (said.some((n) => activitiesUpdatedOf(n) !== undefined)) aside.settle({ action: 'decline' });
  return end;
}

/** What the card the path waits on offered: the last present_options call that asked one. */
function cardOffer(path: readonly TreeNode[]): CardOffer | undefined {
  const at = path.findLastIndex(
    (n, i) =>
      n.kind === 'tool_call' && n.payload['name'] === 'present_options' && path[i + 1]?.kind === 'elicit',
  );
  return CardOfferSchema.safeParse(path[at]?.payload['input']).data;
}
