import assert from 'node:assert/strict';

import {
  assertNewestInView,
  chatText,
  composer,
  conversationList,
  listedTitles,
  PNG,
  say,
  signUp,
  startConversation,
  waitForTurn,
} from './support/ui.mjs';

/** Ids a person should never have to read: node hashes and uuids. */
const ID = /\b[0-9a-f]{12,}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-/;

function reply(page, text) {
  return page.locator('app-chat-node', { has: page.locator('.bubble--assistant', { hasText: text }) }).last();
}

export const scenarios = [
  {
    name: 'another answer to a reply is a sibling branch, told in the reflog, in a tab titled by the first words',
    async run(t) {
      const auth = await t.api.register(t.email('regen'), 'Regen');
      const { id } = await t.api.createConversation(auth.token, 'tidying');
      await t.api.say(auth.token, id, 'My bookshelf is overflowing with paperbacks');
      const page = await t.signedInPage(auth);
      await page.goto(`/c/${id}`);
      const first = reply(page, 'First, one question');
      await first.waitFor();
      await page.waitForFunction(() => document.title.startsWith('My bookshelf is overflowing'));
      assert.equal(await page.title(), 'My bookshelf is overflowing with paperbacks · Sweatpants');

      await first.getByRole('button', { name: /^Actions for this reply/ }).click();
      await page.getByRole('menuitem', { name: 'Regenerate reply' }).click();
      await t.api.settle(auth.token, id);
      // The new reply arrives over the socket after the move: it is the second of two once it has.
      const nav = reply(page, 'First, one question').getByRole('navigation', { name: 'Branches' });
      await nav.filter({ hasText: '2/2' }).waitFor();
      assert.match(await nav.innerText(), /2\/2/, 'the new reply is the second of two');
      await t.shot(page, 'regenerated');
      await page.getByRole('button', { name: 'Previous branch' }).last().click();
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('nav[aria-label^=Branches]')).some((n) =>
          n.textContent?.includes('1/2'),
        ),
      );

      await page.getByRole('link', { name: 'Reflog' }).click();
      const entries = page.locator('ol li');
      await page.getByText('asked for another answer').first().waitFor();
      const top = (await entries.allInnerTexts()).slice(0, 4).join('\n');
      assert.ok(!ID.test(top), `the reflog's first entries carry no ids:\n${top}`);
      await t.shot(page, 'reflog-in-words');
    },
  },
  {
    name: 'a conversation started here is listed under its first words as soon as the coach replies',
    async run(t) {
      const page = await t.page();
      await signUp(page, { email: t.email('first-words') });
      await startConversation(page, 'Tidying coach', 'The spare room is full of boxes');
      await waitForTurn(page);
      // No reload between: the title the api gave it from these words is the one listed.
      assert.deepEqual(await listedTitles(page), ['The spare room is full of boxes']);
    },
  },
  {
    name: 'the sidebar follows activity: a reply in an older conversation brings it to the top',
    async run(t) {
      const auth = await t.api.register(t.email('list'), 'Lister');
      const hall = await t.api.createConversation(auth.token, 'tidying');
      await t.api.say(auth.token, hall.id, 'The hall closet is full of coats');
      const garage = await t.api.createConversation(auth.token, 'concierge');
      await t.api.say(auth.token, garage.id, 'The garage needs sorting');
      const page = await t.signedInPage(auth);
      await page.goto(`/c/${hall.id}`);
      assert.deepEqual(await listedTitles(page), [
        'The garage needs sorting',
        'The hall closet is full of coats',
      ]);
      const list = await conversationList(page);
      assert.equal(
        await list.locator('a[aria-current=page] .conversation__title').innerText(),
        'The hall closet is full of coats',
        'the open conversation is marked in the list',
      );

      // A message in the older conversation: it moves to the top without a reload.
      await say(page, 'and three umbrellas');
      await page.waitForFunction(
        () =>
          document.querySelector('nav[aria-label=Conversations] a.conversation .conversation__title')
            ?.textContent === 'The hall closet is full of coats',
      );
      await waitForTurn(page);
      assert.deepEqual(await listedTitles(page), [
        'The hall closet is full of coats',
        'The garage needs sorting',
      ]);
      await t.shot(page, 'sidebar-by-activity');

      // Rename in place, from the item's menu.
      await list.getByRole('button', { name: 'Actions for The garage needs sorting' }).click();
      await page.getByRole('menuitem', { name: 'Rename' }).click();
      await list.getByLabel('New title').fill('Garage, winter');
      await list.getByRole('button', { name: 'Save' }).click();
      await list.locator('.conversation__title', { hasText: 'Garage, winter' }).waitFor();

      // Search by title.
      await list.getByLabel('Search conversations').fill('winter');
      await page.waitForFunction(
        () => document.querySelectorAll('nav[aria-label=Conversations] a.conversation').length === 1,
      );
      assert.deepEqual(await listedTitles(page), ['Garage, winter']);
      await list.getByLabel('Search conversations').fill('');
      await page.waitForFunction(
        () => document.querySelectorAll('nav[aria-label=Conversations] a.conversation').length === 2,
      );

      // On a phone the same list is a drawer; Archive offers Undo, and Undo keeps it.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('navigation', { name: 'Conversations' }).waitFor({ state: 'detached' });
      assert.deepEqual(await listedTitles(page), ['The hall closet is full of coats', 'Garage, winter']);
      const drawer = page.getByRole('dialog', { name: 'Conversations' });
      await drawer.getByRole('button', { name: 'Actions for Garage, winter' }).click();
      await page.getByRole('menuitem', { name: 'Archive' }).click();
      const undo = drawer.getByRole('status').filter({ hasText: "Archived 'Garage, winter'" });
      await undo.waitFor();
      assert.deepEqual(await drawer.locator('.conversation__title').allInnerTexts(), [
        'The hall closet is full of coats',
      ]);
      await t.shot(page, 'archived-with-undo');
      // The screenshots end at desktop width, where the drawer gives way to the sidebar and the
      // toast leaves the drawer with it: Undo is wherever the toast is.
      await page
        .getByRole('status')
        .filter({ hasText: "Archived 'Garage, winter'" })
        .getByRole('button', { name: 'Undo' })
        .click();
      assert.deepEqual(await listedTitles(page), ['The hall closet is full of coats', 'Garage, winter']);
    },
  },
  {
    name: 'the chat in front: a photo alone starts it, Enter sends, no machinery, the newest message in view',
    async run(t) {
      const auth = await t.api.register(t.email('front'), 'Fronter');
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto('/');
      await page.waitForFunction(() => document.title === 'New conversation · Sweatpants');
      await page.getByRole('button', { name: /Tidying coach/ }).click();
      await page.locator('app-chat-elicit input[type=file]').setInputFiles({
        name: 'desk.png',
        mimeType: 'image/png',
        buffer: PNG,
      });
      await page.locator('app-chat-elicit .thumbs img').waitFor();
      // No words at all: Enter sends the photo on its own, and that makes the conversation.
      await composer(page).press('Enter');
      await page.waitForURL(/\/c\/[^/]+$/, { timeout: 45_000 });
      await page.locator('.bubble--user img').first().waitFor();
      await waitForTurn(page);
      await assertNewestInView(page, 'after the photo');

      // Shift+Enter is a new line; Enter sends.
      await composer(page).waitFor();
      await composer(page).fill('a coffee mug');
      await composer(page).press('Shift+Enter');
      await composer(page).press('End');
      await composer(page).type('and a lamp');
      assert.equal(await composer(page).inputValue(), 'a coffee mug\nand a lamp', 'Shift+Enter kept it here');
      await composer(page).press('Enter');
      await page.locator('.bubble--user', { hasText: 'and a lamp' }).waitFor();
      await waitForTurn(page);
      await assertNewestInView(page, 'after a message');
      for (const words of ['the desk lamp', 'a broken charger']) {
        const card = page.locator('app-elicit-card');
        if (await card.isVisible()) {
          await composer(page).fill(words);
          await composer(page).press('Enter');
        } else await say(page, words);
        await page.locator('.bubble--user', { hasText: words }).waitFor();
        await waitForTurn(page);
        await assertNewestInView(page, `after "${words}"`);
      }

      // What the chat shows is what was said: no ids, no tool names, no synthetic prompts, no JSON.
      const text = await chatText(page);
      for (const machinery of [ID, /\[Continue as/, /Used \w+_\w+/, /"\w+":/, /response-generated/]) {
        assert.ok(!machinery.test(text), `the chat shows machinery (${machinery}):\n${text}`);
      }
      await t.shot(page, 'chat-in-front');
      // One switch shows the agent's steps, in words.
      await page.getByLabel('Show agent steps').check();
      await page.locator('ol.log .step').first().waitFor();
      assert.ok(!ID.test(await chatText(page)), 'the steps are told without ids');
      await page.getByLabel('Show agent steps').uncheck();
      await page.locator('ol.log .step').first().waitFor({ state: 'hidden' });

      // A question card folds to one line, and the newest message stays above it.
      const card = page.locator('app-elicit-card');
      if (await card.isVisible()) {
        await card.getByRole('button', { name: 'Fold the question' }).click();
        await card.getByRole('button', { name: 'Show the question' }).waitFor();
        const folded = await card.boundingBox();
        // One line of words beside the 44px button that unfolds it, inside the card's padding.
        assert.ok(folded && folded.height <= 100, `the folded card is one line: ${JSON.stringify(folded)}`);
        // Back down from the switch at the top, as a person would scroll the chat's pane.
        await page.evaluate(() => {
          const pane = document.querySelector('.pane');
          if (pane) pane.scrollTop = pane.scrollHeight;
        });
        await assertNewestInView(page, 'with the card folded');
        await t.shot(page, 'card-folded');
        await card.getByRole('button', { name: 'Show the question' }).click();
      }
    },
  },
  {
    name: 'rewind asks first and can be undone, and Undo brings the newest message back into view',
    async run(t) {
      const auth = await t.api.register(t.email('rewind'), 'Rewinder');
      const { id } = await t.api.createConversation(auth.token, 'concierge');
      await t.api.say(auth.token, id, 'first: the inbox');
      await t.api.say(auth.token, id, 'second: the receipts');
      // Enough after the rewind point that, brought back, it runs past the screen.
      for (const more of ['third: the newsletters', 'fourth: the bills', 'fifth: the old photos'])
        await t.api.say(auth.token, id, more);
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto(`/c/${id}`);
      const first = page.locator('app-chat-node', {
        has: page.locator('.bubble--user', { hasText: 'first: the inbox' }),
      });
      await page.locator('.bubble--user', { hasText: 'second: the receipts' }).waitFor();

      await first.getByRole('button', { name: /^Actions for your message/ }).click();
      await page.getByRole('menuitem', { name: 'Rewind to here' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.waitFor();
      // Focus moves into the question, on its harmless answer.
      await page
        .waitForFunction(() => document.activeElement?.textContent?.trim() === 'Keep going', undefined, {
          timeout: 2_000,
        })
        .catch(() => assert.fail('focus did not move into the rewind question'));
      await t.shot(page, 'rewind-asks');
      await confirm.getByRole('button', { name: 'Keep going' }).click();
      assert.ok(
        await page.locator('.bubble--user', { hasText: 'second: the receipts' }).isVisible(),
        'nothing moved',
      );

      await first.getByRole('button', { name: /^Actions for your message/ }).click();
      await page.getByRole('menuitem', { name: 'Rewind to here' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Go back' }).click();
      const undo = page.getByRole('status').filter({ hasText: 'You went back to' });
      await undo.waitFor();
      await page.locator('.bubble--user', { hasText: 'second: the receipts' }).waitFor({ state: 'hidden' });
      await t.shot(page, 'went-back');
      await undo.getByRole('button', { name: 'Undo' }).click();
      await page.locator('.bubble--user', { hasText: 'fifth: the old photos' }).waitFor();
      await assertNewestInView(page, 'after Undo');
      await t.shot(page, 'undone');
    },
  },
];
