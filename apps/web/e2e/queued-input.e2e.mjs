// Words sent while the coach is at work wait in a queue instead of being refused: shown as the
// person's own, pending; withdrawn before the coach takes them, or taken at its next prompt and
// answered like any message. Runs against an api of its own whose offline model takes its time
// (OFFLINE_MODEL_PACE_MS), so a turn is visibly running while the person types.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';

import { ApiClient } from './support/api-client.mjs';
import { startOwnApi } from './support/own-api.mjs';
import { assertNewestInView, composer, signUp, startConversation, waitForTurn } from './support/ui.mjs';

/** How long the offline model thinks before each reply: a turn takes a few of these. */
const PACE_MS = 2500;
/** Where the pictures of the queued bubbles go, to be looked at. */
const SHOTS = '/tmp/shots';

const FIRST = 'My desk is covered in mugs, papers and a lamp';
const SECOND = 'also a pile of cables behind the monitor';
const THIRD = 'oh and a plant that needs water';

const queuedBubble = (page, text) => page.locator('ol.log li.queued', { hasText: text });
const pathBubble = (page, text) => page.locator('ol.log .bubble--user', { hasText: text });

/** Types and sends while the coach works: the composer stays open for it. */
async function sendWhileWorking(page, text) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/**
 * Waits until the coach takes `text` from the queue. It does so at its chat prompt: a question card
 * it asks first (what the space is for, where a thing goes) is answered, as the person would.
 */
async function untilTaken(page, text) {
  const taken = pathBubble(page, text);
  const card = page.locator('app-elicit-card');
  for (let question = 0; question < 6; question++) {
    await taken.or(card).first().waitFor({ timeout: 60_000 });
    if (await taken.isVisible()) return;
    const asked = await card.locator('.elicit__message').innerText();
    assert.ok(await queuedBubble(page, text).isVisible(), 'still queued while a question waits');
    assert.match(
      await queuedBubble(page, text).innerText(),
      /Queued — the coach reads this once it is done asking/,
      'it says the question comes first',
    );
    const choice = card.locator('.choice').first();
    if (await choice.isVisible()) await choice.click();
    else await card.getByRole('button', { name: 'Skip this' }).click();
    await page.locator('app-elicit-card', { hasText: asked }).waitFor({ state: 'hidden' });
  }
  assert.fail(`the coach never took "${text}"`);
}

/** The texts of the chat's items in order, one string each. */
async function logItems(page) {
  return (await page.locator('ol.log > li').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
}

/** The person's words on the path, as the api keeps them. */
async function saidOnPath(base, token, id) {
  const { nodes } = await new ApiClient(base).call('GET', `/api/conversations/${id}/path`, { token });
  // Not the coach's own notes to itself, which it writes as `user` nodes too.
  return nodes
    .filter((n) => n.kind === 'user' && !n.authorId.startsWith('agent:'))
    .map((n) => n.payload.text);
}

function journey(size) {
  return async (t) => {
    const api = await startOwnApi('queued', { OFFLINE_MODEL_PACE_MS: String(PACE_MS) });
    mkdirSync(SHOTS, { recursive: true });
    let shots = 0;
    const shot = (page, name) => page.screenshot({ path: `${SHOTS}/queued-${size}-${++shots}-${name}.png` });
    try {
      const page = await t.page({ phone: size === 'phone', at: api.base });
      await signUp(page, { email: t.email(`queued-${size}`) });
      const id = await startConversation(page, 'Tidying coach', FIRST);
      const token = await page.evaluate(
        () => JSON.parse(window.localStorage.getItem('sweatpants.session') ?? '{}').token,
      );

      // The coach is at work: the composer is open all the same, and what is sent waits.
      await page.locator('.working').waitFor();
      await sendWhileWorking(page, SECOND);
      await queuedBubble(page, SECOND).waitFor();
      assert.ok(await page.locator('.working').isVisible(), 'the coach was still at work when it was queued');
      assert.equal(await pathBubble(page, SECOND).count(), 0, 'queued, not on the path');
      assert.match(
        await queuedBubble(page, SECOND).innerText(),
        /Queued — the coach reads this next/,
        'it says who reads it, and when',
      );
      assert.equal(await composer(page).inputValue(), '', 'the words left the box');

      // A third, which they think better of.
      await sendWhileWorking(page, THIRD);
      await queuedBubble(page, THIRD).waitFor();
      assert.match(await queuedBubble(page, THIRD).innerText(), /after the one above/);
      const items = await logItems(page);
      assert.ok(items.at(-1)?.includes(THIRD) && items.at(-2)?.includes(SECOND), 'queued last, in order');
      await assertNewestInView(page, 'once queued');
      await shot(page, 'two-queued');
      if (size === 'phone') await t.shot(page, 'two-queued');

      await queuedBubble(page, THIRD).getByRole('button', { name: 'Withdraw queued message' }).click();
      await queuedBubble(page, THIRD).waitFor({ state: 'hidden' });
      // Withdrawn words are not lost: the empty composer holds them again, to edit or send (once
      // the withdraw's answer is in: the server's queue event can take the bubble away before it).
      await page.waitForFunction(
        (text) => document.querySelector('app-chat-elicit textarea')?.value === text,
        THIRD,
        { timeout: 5_000 },
      );
      assert.equal(await page.locator('[role=alert]').count(), 0, 'no refusal');
      await shot(page, 'one-withdrawn');
      await composer(page).fill('');

      // The coach finishes, takes the queued message at its prompt, and answers it.
      await untilTaken(page, SECOND);
      await queuedBubble(page, SECOND).waitFor({ state: 'hidden' });
      await waitForTurn(page, 60_000);
      const after = await logItems(page);
      const first = after.findIndex((text) => text.includes(FIRST));
      const second = after.findIndex((text) => text.includes(SECOND));
      assert.ok(
        first >= 0 && second > first + 1,
        `the coach's reply comes between: ${JSON.stringify(after)}`,
      );
      assert.ok(
        after.length > second + 1 || (await page.locator('app-elicit-card').isVisible()),
        `the coach answered the queued message: ${JSON.stringify(after)}`,
      );
      assert.equal(await page.locator('ol.log li.queued').count(), 0, 'nothing waits');
      assert.equal(await pathBubble(page, THIRD).count(), 0, 'the withdrawn words were never taken');
      await assertNewestInView(page, 'after the answer');
      await shot(page, 'taken-and-answered');

      // The path as the api keeps it, and the page read afresh: everything they said that was sent.
      assert.deepEqual(await saidOnPath(api.base, token, id), [FIRST, SECOND]);
      await page.reload();
      await pathBubble(page, FIRST).waitFor();
      await pathBubble(page, SECOND).waitFor();
      assert.equal(await pathBubble(page, THIRD).count(), 0);
      assert.equal(await page.locator('ol.log li.queued').count(), 0);
      await shot(page, 'reloaded');
    } finally {
      await api.stop();
    }
  };
}

export const scenarios = [
  { name: 'words sent while the coach works are queued, withdrawn or taken (phone)', run: journey('phone') },
  {
    name: 'words sent while the coach works are queued, withdrawn or taken (desktop)',
    run: journey('desktop'),
  },
];
