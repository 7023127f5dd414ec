import assert from 'node:assert/strict';

import { signIn } from './support/ui.mjs';

export const scenarios = [
  {
    name: 'an admin inspects another user’s reflog',
    async run(t) {
      const user = await t.api.register(t.email('audited'), 'Audited');
      const { id } = await t.api.createConversation(user.token, 'tidying', 'Attic');
      await t.api.say(user.token, id, 'inventory: the attic boxes');
      await t.adminAccount();

      const page = await t.page();
      await signIn(page, { email: t.adminEmail });
      await page.getByRole('link', { name: 'Admin', exact: true }).click();
      await page.getByRole('heading', { name: 'Audit: reflog' }).waitFor();
      await page.getByLabel('Conversation id').fill(id);
      await page.getByRole('button', { name: 'Search' }).click();
      const entry = page.locator('li.entry', { hasText: 'Attic' }).first();
      await entry.waitFor();
      // Names and titles, not ids: the conversation by its title, no UUID in what is read.
      const read = await entry.innerText();
      assert.ok(!read.includes(user.user.id) && !read.includes(id), `no ids in the entry: ${read}`);
      // The api gives admins no names: the person's own moves read as the owner's, not someone's.
      await page.locator('li.entry', { hasText: 'The owner started the conversation' }).waitFor();
      assert.match(read, /another user's/);
      assert.doesNotMatch(await page.locator('app-reflog-view').innerText(), /Someone/);
      // What its model calls cost, in words: the turn above made calls; the offline model estimates
      // its tokens and has no cache, so there is no cache part.
      const usage = page.getByRole('region', { name: 'Model usage of “Attic”' });
      await usage.getByText(/^[1-9]\d* model calls? · [1-9][\d,]* tokens? in · [\d,]+ out$/).waitFor();
      await usage
        .getByText('Estimated: the offline model answered, not Claude, so nothing was billed.')
        .waitFor();
      assert.doesNotMatch(await usage.innerText(), /cache/);
      await t.shot(page, 'audit-reflog');
      await entry.getByRole('button', { name: 'Inspect' }).click();
      await page.waitForURL(new RegExp(`/admin/c/${id}/reflog$`));
      await page.getByText('read-only (admin)').waitFor();
      await page.locator('li.entry').first().waitFor();
      await page.locator('li.entry', { hasText: "The owner said 'inventory: the attic boxes'" }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Recover' }).count(), 0, 'read-only: no recover');
      await page.getByRole('link', { name: 'Chat' }).click();
      await page.locator('.bubble--user', { hasText: 'inventory: the attic boxes' }).waitFor();
      assert.equal(await page.locator('app-chat-elicit').count(), 0, 'read-only: no composer');
      await page.getByRole('button', { name: 'Check integrity' }).click();
      await page.getByText(/Integrity: all steps check out/).waitFor();
      await t.shot(page, 'audit-conversation');

      // Old history: a dry run says what would go, in words, and removes nothing.
      await page.goto('/admin/conversations');
      const history = page.getByRole('region', { name: 'Old history' });
      await history.getByRole('button', { name: 'Dry run' }).click();
      const run = history.getByRole('list', { name: 'Latest clean-ups' }).locator('li').first();
      await run.filter({ hasText: /^Dry run: / }).waitFor();
      assert.match(await run.innerText(), /run by you · keeps history 90 days, discarded branches 30/);
      await t.shot(page, 'old-history-dry-run');
    },
  },
];
