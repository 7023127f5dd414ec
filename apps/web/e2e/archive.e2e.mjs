import assert from 'node:assert/strict';

import { conversationList, listedTitles } from './support/ui.mjs';

/** The bubble of a message the person sent, in the open conversation. */
const sent = (page, text) => page.locator('.bubble--user', { hasText: text }).first();

export const scenarios = [
  {
    name: 'archiving the open conversation: Undo comes back to it, messages and all',
    async run(t) {
      const auth = await t.api.register(t.email('archive-open'), 'Archiver');
      const desk = await t.api.createConversation(auth.token, 'tidying');
      await t.api.say(auth.token, desk.id, 'The desk drawer is full of cables');
      const attic = await t.api.createConversation(auth.token, 'tidying');
      await t.api.say(auth.token, attic.id, 'The attic has old toys');
      const page = await t.signedInPage(auth);
      await page.goto(`/c/${desk.id}`);
      await sent(page, 'The desk drawer is full of cables').waitFor();

      const list = await conversationList(page);
      await list.getByRole('button', { name: 'Actions for The desk drawer is full of cables' }).click();
      const items = await page.getByRole('menuitem').allInnerTexts();
      assert.deepEqual(
        items.map((s) => s.trim()),
        ['Rename', 'Archive'],
        'the menu says what the action does',
      );
      await page.getByRole('menuitem', { name: 'Archive' }).click();
      // The conversation leaves the screen and the list; the toast says what happened.
      await page.waitForURL((url) => url.pathname === '/');
      const toast = page
        .getByRole('status')
        .filter({ hasText: "Archived 'The desk drawer is full of cables'" });
      await toast.waitFor();
      assert.deepEqual(await listedTitles(page), ['The attic has old toys']);
      await t.shot(page, 'archived-open-with-undo');

      await toast.getByRole('button', { name: 'Undo' }).click();
      await page.waitForURL((url) => url.pathname === `/c/${desk.id}`);
      await sent(page, 'The desk drawer is full of cables').waitFor();
      await page.locator('.bubble--assistant').first().waitFor();
      assert.deepEqual(
        (await listedTitles(page)).sort(),
        ['The attic has old toys', 'The desk drawer is full of cables'].sort(),
      );
      await t.shot(page, 'undo-back-in-the-conversation');

      // Undo cancelled the archive before it was sent: the api never archived it.
      await page.waitForTimeout(6_500);
      const listed = await t.api.as(auth.token).listConversations({ query: { archived: true } });
      assert.deepEqual(listed.items, [], 'nothing was archived');
    },
  },
  {
    name: 'an archived conversation is under Archived, and Unarchive brings it back whole',
    async run(t) {
      const auth = await t.api.register(t.email('archive-find'), 'Finder');
      const shed = await t.api.createConversation(auth.token, 'tidying');
      await t.api.say(auth.token, shed.id, 'The shed is full of paint tins');
      const porch = await t.api.createConversation(auth.token, 'tidying');
      await t.api.say(auth.token, porch.id, 'The porch has muddy boots');
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto('/');

      // On a phone, in the drawer.
      let list = await conversationList(page);
      await list.getByRole('button', { name: 'Actions for The shed is full of paint tins' }).click();
      await page.getByRole('menuitem', { name: 'Archive' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: "Archived 'The shed is full of paint tins'" })
        .waitFor();
      // The undo window ends, the toast goes: now the api has archived it.
      await page
        .getByText("Archived 'The shed is full of paint tins'")
        .waitFor({ state: 'detached', timeout: 12_000 });
      const archived = await t.api.as(auth.token).listConversations({ query: { archived: true } });
      assert.deepEqual(
        archived.items.map((c) => c.id),
        [shed.id],
        'the api lists it as archived',
      );

      const toggle = list.getByRole('button', { name: 'Archived' });
      assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
      await toggle.click();
      await list.getByRole('button', { name: 'Archived', expanded: true }).waitFor();
      const section = list.getByRole('region', { name: 'Archived conversations' });
      await section.getByText('The shed is full of paint tins').waitFor();
      assert.match(await section.innerText(), /archived/);
      await t.shot(page, 'archived-section');

      // At desktop width the section is still open in the sidebar; Unarchive there.
      await page.setViewportSize({ width: 1280, height: 800 });
      list = page.getByRole('navigation', { name: 'Conversations' });
      const restore = list.getByRole('button', { name: 'Unarchive The shed is full of paint tins' });
      await restore.waitFor();
      await restore.click();
      await list.locator('a.conversation', { hasText: 'The shed is full of paint tins' }).waitFor();
      await section.getByText('Nothing archived.').waitFor();
      assert.deepEqual(
        (await listedTitles(page)).sort(),
        ['The porch has muddy boots', 'The shed is full of paint tins'].sort(),
      );
      await t.shot(page, 'unarchived-back-in-the-list');

      // Whole: it opens with its messages, and the agent still answers.
      await list.locator('a.conversation', { hasText: 'The shed is full of paint tins' }).click();
      await page.waitForURL((url) => url.pathname === `/c/${shed.id}`);
      await sent(page, 'The shed is full of paint tins').waitFor();
      await page.locator('.bubble--assistant').first().waitFor();
    },
  },
];
