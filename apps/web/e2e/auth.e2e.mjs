import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

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
  {
    name: 'a new password signs out the other devices; sign out everywhere ends this one too',
    async run(t) {
      const email = t.email('keys');
      const laptop = await t.api.register(email, 'Kim');
      const page = await t.page({ phone: true });
      await signIn(page, { email });
      // On a phone the account is in the conversations drawer.
      await page.getByRole('button', { name: 'Conversations', exact: true }).click();
      await page.getByRole('link', { name: 'Your account' }).click();
      await page.getByRole('heading', { name: 'Your account', exact: true }).waitFor();
      assert.equal(await page.title(), 'Your account · Sweatpants');

      await page.getByLabel('Current password').fill('not it at all');
      await page.getByLabel('New password').fill('a much better passphrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      assert.equal(await page.getByRole('alert').innerText(), 'That is not your current password.');
      await t.shot(page, 'wrong-current-password');

      await page.getByLabel('Current password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByRole('status').filter({ hasText: 'Other devices are signed out' }).waitFor();
      await t.shot(page, 'password-changed');
      await assert.rejects(
        t.api.call('GET', '/api/auth/me', { token: laptop.token }),
        { status: 401 },
        'the token another device had is refused',
      );
      await page.goto('/');
      await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();

      await page.goto('/account');
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByRole('status').filter({ hasText: 'signed out on every device' }).waitFor();
      await t.shot(page, 'signed-out-everywhere');
      await signIn(page, { email, password: 'a much better passphrase' });
    },
  },
  {
    name: 'download everything, then delete the account for good',
    async run(t) {
      const email = t.email('leaver');
      const auth = await t.api.register(email, 'Lee');
      const { id } = await t.api.createConversation(auth.token, 'tidying');
      await t.api.say(auth.token, id, 'The attic is full of boxes');
      const page = await t.signedInPage(auth);
      await page.goto('/account');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download your data' }).click();
      const file = await download;
      assert.match(file.suggestedFilename(), /^sweatpants-export-\d{4}-\d\d-\d\d\.zip$/);
      const bytes = await readFile(await file.path());
      assert.equal(bytes.subarray(0, 2).toString(), 'PK', 'a zip archive');

      const remove = page.getByRole('button', { name: 'Delete my account' });
      assert.ok(await remove.isDisabled(), 'nothing is deleted before the person says they understand');
      await page.getByLabel('Your password', { exact: true }).fill('correct horse battery');
      await page.getByLabel('I understand everything is deleted for good').check();
      await t.shot(page, 'about-to-delete');
      await remove.click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Your account and everything in it are deleted.' })
        .waitFor();
      await t.shot(page, 'deleted');
      await assert.rejects(t.api.call('GET', `/api/conversations/${id}`, { token: auth.token }), {
        status: 401,
      });
    },
  },
];
