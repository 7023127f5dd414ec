import assert from 'node:assert/strict';

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
      const first = reply(page, 'First:');
      await first.waitFor();
      await page.waitForFunction(() => document.title.startsWith('My bookshelf is overflowing'));
      assert.equal(await page.title(), 'My bookshelf is overflowing with paperbacks · Sweatpants');

      await first.getByRole('button', { name: /^Actions for this assistant node/ }).click();
      await page.getByRole('menuitem', { name: 'Regenerate reply' }).click();
      await t.api.settle(auth.token, id);
      const nav = reply(page, 'First:').getByRole('navigation', { name: 'Branches' });
      await nav.waitFor();
      assert.match(await nav.innerText(), /2\/2/, 'the new reply is the second of two');
      await t.shot(page, 'regenerated');
      await page.getByRole('button', { name: 'Previous branch' }).last().click();
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('nav[aria-label=Branches]')).some((n) =>
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
    name: 'the conversation list is ordered by activity and titled by first words',
    async run(t) {
      const auth = await t.api.register(t.email('list'), 'Lister');
      const hall = await t.api.createConversation(auth.token, 'tidying');
      await t.api.say(auth.token, hall.id, 'The hall closet is full of coats');
      const garage = await t.api.createConversation(auth.token, 'concierge');
      await t.api.say(auth.token, garage.id, 'The garage needs sorting');
      const page = await t.signedInPage(auth, { phone: true });
      const titles = async () => {
        await page.goto('/');
        await page.locator('a.conversation').first().waitFor();
        return page.locator('a.conversation .conversation__title').allInnerTexts();
      };
      assert.deepEqual(await titles(), ['The garage needs sorting', 'The hall closet is full of coats']);

      // A reply in the older conversation brings it to the top.
      await t.api.say(auth.token, hall.id, 'and three umbrellas');
      assert.deepEqual(await titles(), ['The hall closet is full of coats', 'The garage needs sorting']);
      await t.shot(page, 'list-by-activity');

      // Rename in place; delete offers Undo, and Undo keeps it.
      await page.getByRole('button', { name: 'Rename The garage needs sorting' }).click();
      await page.getByLabel('New title').fill('Garage, winter');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.locator('.conversation__title', { hasText: 'Garage, winter' }).waitFor();
      await page.getByRole('button', { name: 'Delete The hall closet is full of coats' }).click();
      const undo = page.getByRole('status').filter({ hasText: 'Deleted' });
      await undo.waitFor();
      assert.deepEqual(await page.locator('.conversation__title').allInnerTexts(), ['Garage, winter']);
      await t.shot(page, 'deleted-with-undo');
      await undo.getByRole('button', { name: 'Undo' }).click();
      assert.deepEqual(await titles(), ['The hall closet is full of coats', 'Garage, winter']);
    },
  },
  {
    name: 'rewind asks first and can be undone',
    async run(t) {
      const auth = await t.api.register(t.email('rewind'), 'Rewinder');
      const { id } = await t.api.createConversation(auth.token, 'concierge');
      await t.api.say(auth.token, id, 'first: the inbox');
      await t.api.say(auth.token, id, 'second: the receipts');
      const page = await t.signedInPage(auth, { phone: true });
      await page.goto(`/c/${id}`);
      const first = page.locator('app-chat-node', {
        has: page.locator('.bubble--user', { hasText: 'first: the inbox' }),
      });
      await page.locator('.bubble--user', { hasText: 'second: the receipts' }).waitFor();

      await first.getByRole('button', { name: /^Actions for this user node/ }).click();
      await page.getByRole('menuitem', { name: 'Rewind to here' }).click();
      const confirm = page.getByRole('alertdialog');
      await confirm.waitFor();
      await t.shot(page, 'rewind-asks');
      await confirm.getByRole('button', { name: 'Keep going' }).click();
      assert.ok(
        await page.locator('.bubble--user', { hasText: 'second: the receipts' }).isVisible(),
        'nothing moved',
      );

      await first.getByRole('button', { name: /^Actions for this user node/ }).click();
      await page.getByRole('menuitem', { name: 'Rewind to here' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Go back' }).click();
      const undo = page.getByRole('status').filter({ hasText: 'You went back to' });
      await undo.waitFor();
      await page.locator('.bubble--user', { hasText: 'second: the receipts' }).waitFor({ state: 'hidden' });
      await t.shot(page, 'went-back');
      await undo.getByRole('button', { name: 'Undo' }).click();
      await page.locator('.bubble--user', { hasText: 'second: the receipts' }).waitFor();
      await t.shot(page, 'undone');
    },
  },
];
