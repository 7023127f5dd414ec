import assert from 'node:assert/strict';

import {
  assertVisibleText,
  chatText,
  PNG,
  say,
  signUp,
  startConversation,
  waitForTurn,
} from './support/ui.mjs';

const OPENING = 'My desk is covered in mugs, papers and a lamp';
/** The offline coach's guess for a jigsaw puzzle is Donate: the donation helper is handed it. */
const PUZZLE = 'a jigsaw puzzle';
const COACH_ASKS = 'The tidying coach asks…';
const HELPER_ASKS = 'The donation helper asks…';
const OFFER = 'Shall I find a place that takes the jigsaw puzzle?';
const HELPER_SAYS = 'A charity shop or a toy library usually takes the jigsaw puzzle.';

/** The question cards waiting, top to bottom, as the person reads them: who asks, then what. */
async function cardsShown(page) {
  const cards = page.locator('app-elicit-card');
  const shown = [];
  for (let i = 0; i < (await cards.count()); i++) {
    const card = cards.nth(i);
    const asker = card.locator('.elicit__asker');
    shown.push({
      asker: (await asker.count()) > 0 ? (await asker.innerText()).trim() : null,
      question: (await card.locator('.elicit__message').innerText()).trim(),
    });
  }
  return shown;
}

/**
 * The card's whole box is on screen: in the chat's pane (not scrolled off its top) and above the
 * dock (the composer), at the page's current size.
 */
async function assertCardInView(page, card, when) {
  let seen = null;
  for (let attempt = 0; attempt < 20; attempt++) {
    const box = await card.boundingBox();
    const pane = await page.locator('.pane').boundingBox();
    const dock = await page.locator('.dock').boundingBox();
    seen = { box, pane, dock, viewport: page.viewportSize() };
    if (box && pane && dock && box.y >= pane.y - 1 && box.y + box.height <= dock.y + 1) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`the card is not in view ${when}: ${JSON.stringify(seen)}`);
}

/**
 * A session under way on `page`: signed up, the desk's photo, what it is for, the mugs sorted with
 * one tap; then the jigsaw puzzle, which the coach proposes to donate while the donation helper
 * asks alongside. Resolves once both cards wait: the cards, the coach's and the helper's.
 */
async function bothAsking(t, page, who) {
  await signUp(page, { email: t.email(who) });
  await startConversation(page, 'Tidying coach', OPENING, { photo: PNG });
  await waitForTurn(page);
  await say(page, 'writing letters');
  const mugs = page.locator('app-elicit-card', { has: page.locator('app-propose-disposition-elicit') });
  await mugs.waitFor({ timeout: 45_000 });
  await mugs.locator('.choice').first().click();
  await mugs.waitFor({ state: 'hidden' });
  await waitForTurn(page);

  await say(page, PUZZLE);
  const cards = page.locator('app-elicit-card');
  await cards.nth(1).waitFor({ timeout: 45_000 });
  return {
    cards,
    coachCard: cards.filter({ hasText: COACH_ASKS }),
    helperCard: cards.filter({ hasText: HELPER_ASKS }),
  };
}

export const scenarios = [
  {
    name: 'the coach and the donation helper ask at once, each attributed, answered in reverse order',
    async run(t) {
      const page = await t.page({ phone: true });
      // A jigsaw puzzle: the coach proposes to donate it, and the donation helper asks alongside.
      const { cards, coachCard, helperCard } = await bothAsking(t, page, 'askers');
      const shown = await cardsShown(page);
      assert.equal(shown.length, 2, 'both questions wait at once');
      assert.deepEqual(
        shown.map((c) => c.asker),
        [COACH_ASKS, HELPER_ASKS],
        'each card says which agent asks, oldest first',
      );
      assert.equal(shown[1].question, OFFER);
      // Typed words would answer the oldest question: the composer says whose it is.
      assert.equal(
        await page.locator('app-chat-elicit textarea').getAttribute('placeholder'),
        'Answer the coach…',
      );
      // The newest question is in view above the composer, at both sizes.
      for (const size of [
        { width: 390, height: 844 },
        { width: 1280, height: 800 },
      ]) {
        await page.setViewportSize(size);
        await assertCardInView(page, helperCard, `at ${size.width}px with both questions waiting`);
      }
      await page.setViewportSize({ width: 390, height: 844 });
      // On a phone the newer card opens folded to its line, so the coach's question, which typed
      // words answer, is on screen too (the reminder to confirm the email put off for this tab).
      const unfold = helperCard.getByRole('button', { name: 'Show the question' });
      await unfold.waitFor();
      await page.getByRole('button', { name: 'Later', exact: true }).click();
      await assertCardInView(page, coachCard, 'at 390px, the oldest question whole');
      await assertCardInView(page, helperCard, 'at 390px, the newer question folded');
      await t.shot(page, 'both-questions');

      // The helper's question first: it answers in its own name, and the coach's card stays.
      await unfold.click();
      await helperCard.getByRole('button', { name: 'Yes', exact: true }).click();
      await helperCard.waitFor({ state: 'hidden' });
      const reply = page.locator('ol.log .bubble--assistant', { hasText: HELPER_SAYS });
      await reply.waitFor({ timeout: 45_000 });
      assert.equal((await reply.locator('.author').innerText()).trim(), 'Donation helper');
      assert.deepEqual(
        (await cardsShown(page)).map((c) => c.asker),
        [COACH_ASKS],
        'the coach’s card still waits, still saying who asks',
      );
      // The coach waits on its card: the page does not show it at work.
      await page.locator('.working').waitFor({ state: 'hidden' });
      await page.locator('.head .pill', { hasText: 'waiting for your answer' }).waitFor();
      await assertCardInView(page, coachCard, 'after the helper’s question was answered');
      // The helper's question, answered, is in the chat saying whose it was.
      const asked = page.locator('ol.log .question', { hasText: OFFER });
      assert.equal((await asked.locator('.author').innerText()).trim(), 'Donation helper');
      assert.equal((await asked.locator('.question__answer').innerText()).replace('↳', '').trim(), 'Yes');
      await t.shot(page, 'helper-answered');

      // Then the coach's card: the puzzle goes out, to be donated.
      const donate = coachCard.locator('.choice', { hasText: /donat/i }).first();
      await donate.click();
      await coachCard.waitFor({ state: 'hidden' });
      await waitForTurn(page);
      assert.equal(await cards.count(), 0, 'no question is left waiting');
      const log = await chatText(page);
      assert.ok(log.indexOf(OFFER) < log.lastIndexOf('jigsaw puzzle'), 'the card’s answer follows');
      await page.getByRole('button', { name: /session details/ }).click();
      const out = page.locator('app-state-panel .pile', { hasText: 'Out' });
      await out.getByText('jigsaw puzzle').waitFor();
      await assertVisibleText(page, 'jigsaw puzzle');
      await t.shot(page, 'sorted');
    },
  },
  {
    name: 'tapping the coach’s card first puts the puzzle out at once, while the helper’s question still waits',
    async run(t) {
      const page = await t.page();
      const { cards, coachCard, helperCard } = await bothAsking(t, page, 'card-first');

      // The coach's card first: the puzzle is in Out at once; the helper's question stays.
      await coachCard.locator('.choice', { hasText: /donat/i }).first().click();
      await coachCard.waitFor({ state: 'hidden' });
      const details = page.getByRole('button', { name: /session details/ });
      if (await details.isVisible()) await details.click();
      const out = page.locator('app-state-panel .pile', { hasText: 'Out' });
      await out.getByText('jigsaw puzzle').waitFor();
      assert.deepEqual(
        (await cardsShown(page)).map((c) => c.question),
        [OFFER],
        'the helper’s question still waits',
      );
      await t.shot(page, 'card-first');

      // Then the helper's: it answers, and the coach goes on.
      await helperCard.getByRole('button', { name: 'Yes', exact: true }).click();
      await page.locator('ol.log .bubble--assistant', { hasText: HELPER_SAYS }).waitFor({ timeout: 45_000 });
      await waitForTurn(page);
      assert.equal(await cards.count(), 0, 'no question is left waiting');
      await out.getByText('jigsaw puzzle').waitFor();
    },
  },
];
