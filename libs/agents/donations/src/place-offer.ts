import { ask, createTool, Ok, Run } from '@sweatpants/agent-runtime';
import type { TreeNode } from '@sweatpants/domain';
import * as z from 'zod';
import type { Kind } from './drop-off-directory';
import { kindOf } from './item-kind';
import { isPlural } from './said-items';

/** What the helper answers another agent that hands it a thing to give away. */
export interface PlaceOffer {
  item: string;
  /** the person wants the helper to find a place that takes it */
  find: boolean;
}

/** The kind of place that usually takes a kind of thing, as the helper says it. */
const TAKERS: Record<Kind, string> = {
  clothes: 'a charity shop or a clothes bank',
  books: 'a charity shop or a library book sale',
  toys: 'a charity shop or a toy library',
  kitchenware: 'a charity shop',
  electronics: 'a repair café or an electronics recycling point',
  furniture: 'a furniture reuse charity, most of which collect',
  anything: 'a charity shop',
};

/**
 * The helper's word when the person answered its offer: where such a thing usually goes, and how
 * it finds the nearest, or that it leaves the thing be.
 */
export function offerReply({ item, find }: PlaceOffer): string {
  if (!find) return `All right, I'll leave the ${item} to you.`;
  const them = isPlural(item) ? 'them' : 'it';
  const takers = TAKERS[kindOf(item)];
  return `${takers.charAt(0).toUpperCase()}${takers.slice(1)} usually takes the ${item}. To find the nearest place that takes ${them}, start a conversation with the donation helper and tell me roughly where you are.`;
}

/**
 * Whether the person turned down an offer of the helper's earlier in this conversation ("No", or
 * "Skip this"): the helper is not pressed on them for every thing after it.
 */
function turnedDownBefore(path: readonly TreeNode[], helper: string): boolean {
  const offers = new Set(
    path
      .filter((n): n is TreeNode<'elicit'> => n.kind === 'elicit' && n.authorId === helper)
      .filter((n) => n.payload.type === 'confirm')
      .map((n) => n.payload.elicitId),
  );
  return path
    .filter((n): n is TreeNode<'response'> => n.kind === 'response')
    .some(({ payload: { elicitId, action, content } }) => {
      const said = typeof content === 'object' && content !== null && !Array.isArray(content) ? content : {};
      return (
        offers.has(elicitId) && (action === 'decline' || (action === 'accept' && said['value'] === false))
      );
    });
}

/**
 * The helper's offer about a thing another agent hands it (the tidying coach's item on its way to
 * the donate pile): one short question, asked in that agent's conversation as the helper's own,
 * alongside whatever that agent asks; its answer is recorded and the helper says what it means.
 * No model call: the offer and its reply are the helper's fixed words. Once turned down, it is
 * not made again in that conversation.
 */
export const offerPlace = createTool('offer_place')
  .description('Offer to find a place that takes one thing the person is giving away.')
  .parameter(z.object({ item: z.string().trim().min(1).max(200) }))
  .execute(function* ({ item }) {
    const run = yield* Run.expect();
    // Said no to once, the offer is not made again: the thing is left to the person, unasked.
    if (turnedDownBefore(run.journal.path(), run.authorId)) return Ok<PlaceOffer>({ item, find: false });
    const asked = yield* ask(
      {
        type: 'confirm',
        message: `Shall I find a place that takes the ${item}?`,
        payload: { default: true },
      },
      { value: false },
    );
    const offer: PlaceOffer = { item, find: asked.content.value && !asked.fallback };
    if (!run.journal.take('assistant', 'the helper’s word on its offer')) {
      const payload = { text: offerReply(offer), settledBy: 'tool' };
      yield* run.journal.append([{ kind: 'assistant', payload, authorId: run.authorId }]);
      // Said while the coach's card may still wait: stored now, so the person sees it now.
      yield* run.journal.durable();
    }
    return Ok(offer);
  });
