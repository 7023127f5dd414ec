// The conversation page as a person holds it: on a phone the header stays while the chat scrolls
// in its own pane, a question card shows whole (its last option and its buttons on screen), one
// text box answers it, and the status chip says "waiting" only while something waits.
import assert from 'node:assert/strict';

import { PHONE } from './support/context.mjs';
import { composer, PNG, signUp, startConversation, waitForTurn } from './support/ui.mjs';

/** Asserts that what `locator` shows lies within the viewport, top and bottom. */
async function assertOnScreen(page, locator, what) {
  const box = await locator.boundingBox();
  const { height } = page.viewportSize();
  assert.ok(box, `${what} is shown`);
  assert.ok(
    box.y >= -1 && box.y + box.height <= height + 1,
    `${what} is on screen: ${JSON.stringify({ box, height })}`,
  );
}

/** The status chip beside the agent's name in the conversation's header. */
function statusChip(page) {
  return page.locator('app-conversation-shell .head .pill').nth(1);
}

/** Goes on until a card with one-tap choices waits; words go where the composer is the question. */
async function untilAChoiceCard(page) {
  const card = page.locator('app-elicit-card');
  const words = ['writing letters', 'a coffee mug', 'the lamp'];
  for (let turn = 0; turn < 8; turn++) {
    await waitForTurn(page);
    if (await card.locator('.choice').first().isVisible()) return card;
    await composer(page).fill(words[turn % words.length]);
    await composer(page).press('Enter');
    await page
      .locator('.working')
      .waitFor({ state: 'visible', timeout: 5_000 })
      .catch(() => undefined);
  }
  assert.fail('no card with choices came');
}

export const scenarios = [
  {
    name: 'on a phone the header stays while the chat scrolls, and a card shows whole',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('phone') });
      await startConversation(page, 'Tidying coach', 'My desk is covered in mugs, papers and a lamp', {
        photo: PNG,
      });
      // A chat longer than the screen: a tangent or two before the card the scenario looks at.
      await waitForTurn(page);
      for (const aside of ['wait, where do cables usually go?', 'and what about old receipts?']) {
        await composer(page).fill(aside);
        await composer(page).press('Enter');
        await page.locator('ol.log .bubble--user', { hasText: aside }).waitFor();
        await waitForTurn(page);
      }
      const card = await untilAChoiceCard(page);

      // The chat scrolls in its own pane, not the page: the drawer button and the title stay put.
      const pane = page.locator('.pane');
      const box = await pane.boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -4000);
      await page.waitForFunction(() => document.querySelector('.pane')?.scrollTop === 0);
      await page.mouse.wheel(0, 8000);
      await page.waitForFunction(() => {
        const p = document.querySelector('.pane');
        return p !== null && p.scrollTop + p.clientHeight >= p.scrollHeight - 2;
      });
      assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page itself does not scroll');
      await assertOnScreen(
        page,
        page.getByRole('button', { name: 'Conversations', exact: true }),
        'the drawer button',
      );
      await assertOnScreen(page, page.locator('app-conversation-shell h1'), 'the conversation title');

      // The card, scrolled to, shows its last option and its buttons; it never scrolls inside itself.
      await assertOnScreen(page, card.locator('.choice').last(), "the card's last option");
      await assertOnScreen(page, card.getByRole('button', { name: 'Cancel' }), "the card's Cancel button");
      await assertOnScreen(page, composer(page), 'the composer');
      const inner = await card.locator('.elicit__body').evaluate((el) => ({
        scrolls: el.scrollHeight > el.clientHeight + 1,
        overflow: getComputedStyle(el).overflowY,
      }));
      assert.ok(
        !inner.scrolls && inner.overflow === 'visible',
        `the card does not scroll inside: ${JSON.stringify(inner)}`,
      );
      // Compact: the card and the composer leave the chat above them more than half the screen.
      const cardBox = await card.boundingBox();
      const dock = await page.locator('.dock').boundingBox();
      const share = (dock.y + dock.height - cardBox.y) / PHONE.height;
      assert.ok(share <= 0.55, `the card and the composer take ${Math.round(share * 100)}% of the screen`);
      // One text box: the composer; a card never has a second one with other rules.
      assert.equal(await card.locator('textarea').count(), 0, 'the card has no text box of its own');

      assert.equal((await statusChip(page).innerText()).trim(), 'waiting for your answer');
      await t.shot(page, 'card-whole');
    },
  },
  {
    name: 'the status chip says waiting only while something waits',
    async run(t) {
      const auth = await t.api.register(t.email('chip'), 'Chipper');
      const { id } = await t.api.createConversation(auth.token, 'concierge');
      const settled = await t.api.say(auth.token, id, 'hello there');
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto(`/c/${id}`);
      await page.locator('.bubble--user', { hasText: 'hello there' }).waitFor();
      await waitForTurn(page);
      const chip = (await statusChip(page).innerText()).trim();
      const card = await page.locator('app-elicit-card').isVisible();
      if (card) assert.equal(chip, 'waiting for your answer', 'a card waits: the chip says so');
      else
        assert.ok(
          !/waiting/.test(chip),
          `no question waits (pending: ${settled.pendingElicit?.type ?? 'none'}), yet the chip says "${chip}"`,
        );
      await t.shot(page, 'chip');
    },
  },
];
