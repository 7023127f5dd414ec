import assert from 'node:assert/strict';

import { chatText, PNG, signUp, startConversation, waitForTurn } from './support/ui.mjs';

/** A user with a tidying conversation holding two messages, set up through the api. */
async function twoMessages(t, first, second) {
  const auth = await t.api.register(t.email('branch'), 'Brancher');
  const conversation = await t.api.createConversation(auth.token, 'tidying', 'Branches');
  await t.api.say(auth.token, conversation.id, first);
  await t.api.say(auth.token, conversation.id, second);
  return { auth, id: conversation.id };
}

function userNode(page, text) {
  return page.locator('app-chat-node', { has: page.locator('.bubble--user', { hasText: text }) }).first();
}

async function edit(page, from, to, { shot } = {}) {
  const node = userNode(page, from);
  await node.getByRole('button', { name: /^Actions for your message/ }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  // While it is being edited the bubble no longer shows its text: find the form on the page.
  const box = page.getByLabel('Edit your message');
  await box.waitFor();
  // Focus lands in the box, so the person types straight away.
  await page.waitForTimeout(100);
  assert.ok(await box.evaluate((el) => el === document.activeElement), 'focus moved into the edit box');
  // …and the box is in sight: the chat following its newest message (a card below it) does not
  // scroll it away as it opens.
  await page.waitForTimeout(300);
  const inSight = await box.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const pane = (el.closest('.pane') ?? document.documentElement).getBoundingClientRect();
    return box.top >= pane.top - 1 && box.bottom <= pane.bottom + 1;
  });
  assert.ok(inSight, 'the edit box is in sight');
  // The edit box and its buttons pass axe's colour contrast (its Cancel was 1.07:1 on the bubble).
  if (shot) await shot('editing');
  await box.fill(to);
  await page.getByRole('button', { name: 'Save as a new branch' }).click();
  await userNode(page, to).waitFor();
}

export const scenarios = [
  {
    name: 'edit an earlier message and see the branch',
    async run(t) {
      const { auth, id } = await twoMessages(t, 'first: the bookshelf', 'second: the wardrobe');
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto(`/c/${id}`);
      await userNode(page, 'second: the wardrobe').waitFor();
      await edit(page, 'first: the bookshelf', 'first: the desk instead', {
        shot: (name) => t.shot(page, name),
      });
      const text = await chatText(page);
      assert.ok(!text.includes('second: the wardrobe'), 'the later message belongs to the old branch');
      const nav = userNode(page, 'first: the desk instead').getByRole('navigation', { name: 'Branches' });
      assert.match(await nav.innerText(), /2\/2/);
      await t.shot(page, 'edited');
      await page.getByRole('link', { name: 'Tree' }).click();
      await page.locator('svg g.node').first().waitFor();
      assert.ok((await page.locator('svg g.node--head-path').count()) >= 3, 'the HEAD path is highlighted');
      // Words, not the machinery: "You are here", steps, never HEAD or nodes.
      await page.getByText('You are here').first().waitFor();
      const words = await page.locator('app-tree-page').innerText();
      assert.ok(!/HEAD|\bnodes?\b/.test(words), `the tree shows jargon:\n${words}`);
      await t.shot(page, 'tree');
    },
  },
  {
    name: 'edit the last message while the coach’s card waits below it: the edit box stays in sight',
    async run(t) {
      const auth = await t.api.register(t.email('edit-last'), 'Editor');
      const { id } = await t.api.createConversation(auth.token, 'tidying', 'My desk');
      await t.api.say(auth.token, id, "my desk. I can't work here anymore");
      await t.api.say(auth.token, id, 'laptop, two coffee mugs, a stack of bills and some cables');
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto(`/c/${id}`);
      await page.getByRole('heading', { name: 'What about the laptop?' }).waitFor();
      // (the email banner put away, as most people do: the chat has the height to show the card whole)
      await page.getByRole('button', { name: 'Later' }).click();
      await edit(page, 'laptop, two coffee mugs', 'a laptop and some cables', {
        shot: (name) => t.shot(page, name),
      });
      await page.getByRole('heading', { name: 'What about the laptop?' }).waitFor();
    },
  },
  {
    name: 'edit the words of a message sent with a photo: the photo stays with it',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('photo-edit') });
      await startConversation(page, 'Tidying coach', 'My desk: mugs and a lamp', { photo: PNG });
      await waitForTurn(page);
      await edit(page, 'My desk: mugs and a lamp', 'My kitchen table: mugs and keys');
      const edited = page.locator('.bubble--user', { hasText: 'My kitchen table: mugs and keys' });
      await edited.locator('.photos img').waitFor();
      assert.match(
        await userNode(page, 'My kitchen table: mugs and keys')
          .getByRole('navigation', { name: 'Branches' })
          .innerText(),
        /2\/2/,
      );
      await waitForTurn(page);
      await t.shot(page, 'edited-with-photo');
    },
  },
  {
    name: 'switch branches',
    async run(t) {
      const { auth, id } = await twoMessages(t, 'one: the hallway', 'two: the shoe rack');
      const path = await t.api.path(auth.token, id);
      const firstUser = path.nodes.find((n) => n.kind === 'user' && n.payload.text === 'one: the hallway');
      assert.ok(firstUser, 'the first message is on the path');
      await t.api.call('POST', `/api/conversations/${id}/nodes/${firstUser.id}/edit`, {
        token: auth.token,
        body: { text: 'one: the porch' },
      });
      await t.api.settle(auth.token, id);
      const page = await t.signedInPage(auth);
      await page.goto(`/c/${id}`);
      await userNode(page, 'one: the porch').waitFor();
      await page.getByRole('button', { name: 'Previous branch' }).first().click();
      await userNode(page, 'two: the shoe rack').waitFor();
      assert.match(
        await userNode(page, 'one: the hallway').getByRole('navigation', { name: 'Branches' }).innerText(),
        /1\/2/,
      );
      await t.shot(page, 'switched-back');
      await page.getByRole('button', { name: 'Next branch' }).first().click();
      await userNode(page, 'one: the porch').waitFor();
      assert.ok(!(await chatText(page)).includes('two: the shoe rack'));
    },
  },
  {
    name: 'recover a discarded branch from the reflog',
    async run(t) {
      const auth = await t.api.register(t.email('recover'), 'Recoverer');
      const { id } = await t.api.createConversation(auth.token, 'tidying', 'Recover');
      const kept = await t.api.say(auth.token, id, 'keep: the blue vase');
      const discarded = await t.api.say(auth.token, id, 'discard: the red chair');
      await t.api.rewind(auth.token, id, kept.head);
      await t.api.say(auth.token, id, 'instead: the green rug');
      const { entries } = await t.api.reflog(auth.token, id);
      const lost = entries.find((e) => e.newHead === discarded.head);
      assert.ok(lost, 'the discarded tip is in the reflog');

      const page = await t.signedInPage(auth, { phone: true });
      await page.goto(`/c/${id}`);
      await userNode(page, 'instead: the green rug').waitFor();
      await page.getByRole('link', { name: 'Reflog' }).click();
      const entry = page.locator(`li.entry[data-index="${lost.index}"]`);
      await entry.waitFor();
      // After a rewind, one entry offers Recover: the branch just left, marked so.
      assert.equal(
        await page.getByRole('button', { name: 'Recover this branch' }).count(),
        1,
        'Recover once',
      );
      await entry.getByText('The branch you just left').waitFor();
      await entry.getByRole('button', { name: 'Inspect' }).click();
      await page.getByRole('dialog').getByText('discard: the red chair').waitFor();
      // The dialog opens on its heading, never on the button that moves the conversation.
      await page
        .waitForFunction(() => document.activeElement?.id === 'inspector-title', undefined, {
          timeout: 2_000,
        })
        .catch(() => assert.fail('the inspector did not focus its heading'));
      await t.shot(page, 'inspect-discarded');
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
      await entry.getByRole('button', { name: 'Recover' }).click();
      await page.locator('li.entry', { hasText: 'recovered' }).first().waitFor();
      await t.shot(page, 'reflog-recovered');
      await page.getByRole('link', { name: 'Chat' }).click();
      await userNode(page, 'discard: the red chair').waitFor();
      assert.ok(!(await chatText(page)).includes('instead: the green rug'));
    },
  },
];
