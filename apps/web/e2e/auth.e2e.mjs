import assert from 'node:assert/strict';

import { signIn, signUp } from './support/ui.mjs';

export const scenarios = [
  {
    name: 'sign up (and see the api refuse a short password)',
    async run(t) {
      const page = await t.page({ phone: true });
      await page.goto('/sign-up');
      await page.getByLabel('Your name').fill('Robin');
      await page.getByLabel('Email').fill(t.email('short'));
      await page.getByLabel('Password').fill('short');
      await page.getByRole('button', { name: 'Create account' }).click();
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.innerText(), /password|8/i, 'the api error names the bad field');
      await t.shot(page, 'sign-up-error');

      const email = t.email('robin');
      await signUp(page, { email, name: 'Robin' });
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await t.shot(page, 'signed-up');
      const stored = await page.evaluate(() => window.localStorage.getItem('sweatpants.session'));
      assert.ok(stored?.includes('"token"'), 'the token is kept in localStorage');
    },
  },
  {
    name: 'a second user cannot open the first user’s conversation',
    async run(t) {
      const first = await t.api.register(t.email('first'), 'First');
      const conversation = await t.api.createConversation(first.token, 'tidying', 'Private closet');
      const secondEmail = t.email('second');
      await t.api.register(secondEmail, 'Second');
      const page = await t.page();
      await signIn(page, { email: secondEmail });
      assert.ok(!(await page.getByText('Private closet').count()), 'not in the second user’s list');
      await page.goto(`/c/${conversation.id}`);
      const alert = page.getByRole('alert');
      await alert.waitFor();
      assert.match(await alert.innerText(), /not found|no such/i);
      assert.equal(await page.locator('.bubble').count(), 0, 'nothing of the conversation is shown');
      await t.shot(page, 'not-found');
    },
  },
];
