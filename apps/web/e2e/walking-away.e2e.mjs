import assert from 'node:assert/strict';

import { PNG, composer, say, tapAndWait, waitForTurn } from './support/ui.mjs';

/**
 * What a person does that nobody scripts: they put something away and come back after the
 * conversation's agent has been put to sleep (`RUNNER_IDLE_MS`, short in these runs), they look
 * at another branch with the arrows and come back, and they carry on after the recap.
 */

const OPENING = 'My desk is covered in mugs, papers and a lamp';

/** A tidying session set up through the api up to the chat prompt after the mugs went out. */
async function mugsSorted(t, name) {
  const auth = await t.api.register(t.email(name), 'Walker');
  const { id } = await t.api.createConversation(auth.token, 'tidying', 'The desk');
  await t.api.call('POST', `/api/conversations/${id}/messages`, {
    token: auth.token,
    body: { text: OPENING, photos: [{ mediaType: 'image/png', data: PNG.toString('base64') }] },
  });
  let c = await t.api.settle(auth.token, id);
  assert.equal(c.pendingElicit.type, 'choose', 'the coach asks what the space is for');
  await t.api.call('POST', `/api/conversations/${id}/messages`, {
    token: auth.token,
    body: { text: 'writing letters' },
  });
  c = await settleOn(t, auth.token, id, c.pendingElicit.elicitId);
  assert.equal(c.pendingElicit.payload.item, 'mugs');
  const kitchen = c.pendingElicit.payload.choices.find((choice) => choice.disposition.location === 'kitchen');
  await t.api.respond(auth.token, id, c.pendingElicit.elicitId, {
    action: 'accept',
    content: { disposition: kitchen.disposition, wasCorrection: false },
  });
  c = await settleOn(t, auth.token, id, c.pendingElicit.elicitId);
  assert.equal(c.pendingElicit.type, 'chat');
  return { auth, id };
}

/** The conversation once it waits on a question other than `previous`. */
async function settleOn(t, token, id, previous) {
  for (let i = 0; i < 200; i++) {
    const c = await t.api.settle(token, id);
    if (c.pendingElicit.elicitId !== previous) return c;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`conversation ${id} still waits on ${previous}`);
}

/**
 * Waits until the api has put this conversation's agent to sleep. A listing reads what an open
 * runner says and opens none, so a conversation listed as idle with no question waiting has no
 * runner: one in memory would list the question it waits on. (The open-runners gauge counted the
 * runners of every scenario before this one too, and on a loaded CI machine the last of them once
 * took more than 30 s to be swept.)
 */
async function untilAsleep(t, token, id) {
  for (let i = 0; i < 300; i++) {
    const { items } = await t.api.call('GET', '/api/conversations', { token });
    const listed = items.find((c) => c.id === id);
    if (listed && listed.status === 'idle' && listed.pendingElicits.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the agent of conversation ${id} was not put to sleep`);
}

const card = (page) => page.locator('app-propose-disposition-elicit');
const itemOf = async (page) => (await card(page).locator('.item strong').innerText()).toLowerCase();

function userNode(page, text) {
  return page.locator('app-chat-node', { has: page.locator('.bubble--user', { hasText: text }) }).first();
}

export const scenarios = [
  {
    name: 'a message typed after a pause is taken, and a card tapped after one',
    async run(t) {
      const { auth, id } = await mugsSorted(t, 'pause');
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto(`/c/${id}`);
      await composer(page).waitFor();

      // They put the mugs away; meanwhile the agent is put to sleep.
      await untilAsleep(t, auth.token, id);
      await say(page, 'a scarf');
      await card(page).waitFor();
      assert.match(await itemOf(page), /scarf/);
      assert.equal(await page.locator('[role=alert]').count(), 0, 'no error anywhere');
      assert.equal(
        await composer(page)
          .inputValue()
          .catch(() => ''),
        '',
        'the words left the box',
      );
      await t.shot(page, 'scarf-card-after-pause');

      // Away again, with the card waiting; the tap still lands.
      await untilAsleep(t, auth.token, id);
      await tapAndWait(page, card(page).locator('.choice').first());
      assert.equal(await page.locator('[role=alert]').count(), 0, 'no error after the tap');
      const state = await t.api.call('GET', `/api/conversations/${id}/state`, { token: auth.token });
      assert.equal(state.state.itemsProcessed, 2, 'the mugs and the scarf are both sorted');
      await t.shot(page, 'card-tapped-after-pause');
    },
  },
  {
    name: 'words typed at a card after a pause answer it',
    async run(t) {
      const auth = await t.api.register(t.email('card-words'), 'Walker');
      const { id } = await t.api.createConversation(auth.token, 'concierge', 'The inbox');
      await t.api.say(auth.token, id, 'review my quarantined items');
      let c = await t.api.settle(auth.token, id);
      assert.equal(c.pendingElicit.type, 'choose', 'the concierge asks about the first group');
      await t.api.respond(auth.token, id, c.pendingElicit.elicitId, {
        action: 'accept',
        content: { choiceId: 'B' },
      });
      c = await settleOn(t, auth.token, id, c.pendingElicit.elicitId);
      assert.equal(c.pendingElicit.type, 'choose', 'and then about the next');
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto(`/c/${id}`);
      const choose = page.locator('app-elicit-card app-choose-elicit');
      await choose.waitFor();

      // They think it over; the agent is put to sleep; then they type the letter.
      await untilAsleep(t, auth.token, id);
      await say(page, 'A');
      await page.locator('.bubble--assistant', { hasText: /^\(offline\) Done: 1 updated/ }).waitFor();
      await waitForTurn(page);
      assert.equal(await page.getByText(/Queued/).count(), 0, 'the words were not queued behind the card');
      const { state } = await t.api.call('GET', `/api/conversations/${id}/state`, { token: auth.token });
      assert.equal(state.review.done, 4, 'the first group and this item are both decided');
      await t.shot(page, 'card-answered-in-words-after-pause');
    },
  },
  {
    name: 'branch arrows keep the waiting card',
    async run(t) {
      const { auth, id } = await mugsSorted(t, 'arrows');
      await t.api.say(auth.token, id, 'the lamp');
      const asked = await t.api.settle(auth.token, id);
      assert.equal(asked.pendingElicit.payload.item, 'lamp');
      const page = await t.signedInPage(auth);
      await page.goto(`/c/${id}`);
      await card(page).waitFor();

      // Edit "the lamp" to "the desk lamp": a second branch with its own card.
      await userNode(page, 'the lamp')
        .getByRole('button', { name: /^Actions for your message/ })
        .click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await page.getByLabel('Edit your message').fill('the desk lamp');
      await page.getByRole('button', { name: 'Save as a new branch' }).click();
      await userNode(page, 'the desk lamp').waitFor();
      await card(page).waitFor();
      assert.match(await itemOf(page), /desk lamp/);

      // ‹1/2›: the lamp's card is there again.
      await userNode(page, 'the desk lamp').getByRole('button', { name: 'Previous branch' }).click();
      await userNode(page, 'the lamp').waitFor();
      await card(page).waitFor();
      assert.match(await itemOf(page), /lamp/);
      assert.doesNotMatch(await itemOf(page), /desk/);
      await t.shot(page, 'first-branch-card');

      // ‹2/2›: and the desk lamp's, which a tap answers.
      await userNode(page, 'the lamp').getByRole('button', { name: 'Next branch' }).click();
      await userNode(page, 'the desk lamp').waitFor();
      await card(page).waitFor();
      assert.match(await itemOf(page), /desk lamp/);
      assert.equal(await page.getByText(/stopped/i).count(), 0, 'nothing was stopped');
      await t.shot(page, 'second-branch-card');
      await tapAndWait(page, card(page).locator('.choice').first());
      const state = await t.api.call('GET', `/api/conversations/${id}/state`, { token: auth.token });
      assert.equal(state.state.itemsProcessed, 2, 'the mugs and the desk lamp are sorted');
    },
  },
  {
    name: 'carrying on after the recap keeps the piles',
    async run(t) {
      const { auth, id } = await mugsSorted(t, 'recap');
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto(`/c/${id}`);
      await say(page, "I'm done");
      await waitForTurn(page);
      await page
        .locator('.bubble', { hasText: /Session done/ })
        .first()
        .waitFor();
      await t.shot(page, 'recap');

      await say(page, 'the lamp');
      await card(page).waitFor();
      assert.match(await itemOf(page), /lamp/);
      const state = await t.api.call('GET', `/api/conversations/${id}/state`, { token: auth.token });
      assert.deepEqual(state.state.piles.out, ['mugs'], 'the mugs are still out');
      assert.equal(state.state.itemsProcessed, 1);
      assert.notEqual(state.state.phase, 'surveying', 'the coach does not start over');
      await t.shot(page, 'carried-on');
    },
  },
];
