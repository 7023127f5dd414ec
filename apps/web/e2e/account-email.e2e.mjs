import assert from 'node:assert/strict';

import { signUp } from './support/ui.mjs';

/**
 * Where the product is opened: PUBLIC_URL's default (localhost), so a mail's link opens in the
 * same site as the page, with its session, as it does for a person.
 */
const publicUrl = (t) => t.base.replace('127.0.0.1', 'localhost');

export const scenarios = [
  {
    name: 'forgot password: the mailed link sets a new password and signs the person in; used again, it says so',
    async run(t) {
      const email = t.email('forgetful');
      const before = await t.api.register(email, 'Fern');
      const page = await t.page({ phone: true, at: publicUrl(t) });
      await page.goto('/sign-in');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
      assert.equal(await page.title(), 'Forgot password · Sweatpants');
      await page.getByLabel('Email').fill(email);
      await page.getByRole('button', { name: 'Mail me a link' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'a link to set a new password is on its way' })
        .waitFor();
      await t.shot(page, 'reset-asked');

      const letter = await t.mail.next(email, { subject: /^Set a new password/ });
      assert.match(letter.text, /within 30 minutes/);
      assert.equal(`${letter.link?.origin}${letter.link?.pathname}`, `${publicUrl(t)}/reset-password`);
      await page.goto(letter.link.href);
      await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
      await page.getByRole('textbox', { name: /^New password/ }).fill('short');
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      assert.equal(await page.getByRole('alert').innerText(), 'Use at least 8 characters for the password.');
      await t.shot(page, 'reset-page');

      await page.getByRole('textbox', { name: /^New password/ }).fill('a fresh start at last');
      await page.getByRole('button', { name: 'Set password and sign in' }).click();
      await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await t.shot(page, 'signed-in-with-new-password');
      await assert.rejects(
        t.api.call('GET', '/api/auth/me', { token: before.token }),
        { status: 401 },
        'the session from before the reset is over',
      );
      // The mail reached the address: the account's email is proven with it, so no banner.
      assert.equal(await page.getByText('Please confirm your email').count(), 0);

      // The same link a second time (another tab, a later click): refused plainly.
      const again = await t.page({ at: publicUrl(t) });
      await again.goto(letter.link.href);
      await again.getByRole('textbox', { name: /^New password/ }).fill('yet another passphrase');
      await again.getByRole('button', { name: 'Set password and sign in' }).click();
      assert.equal(
        await again.getByRole('alert').innerText(),
        'This link was used already. Ask for a new one if you need it.',
      );
      await again.getByRole('link', { name: 'Ask for a new link' }).waitFor();
      await t.shot(again, 'reset-link-used');
    },
  },
  {
    name: 'a new account is asked, calmly, to confirm its email; the mailed link does it and the banner goes',
    async run(t) {
      const email = t.email('newcomer');
      const page = await t.page({ at: publicUrl(t) });
      await signUp(page, { email, name: 'Nia' });
      const banner = page.getByText('Please confirm your email');
      await banner.waitFor();
      assert.match(
        await banner.innerText(),
        new RegExp(`we sent a link to ${email.replace(/[.+]/g, '\\$&')}`),
      );
      await t.mail.next(email, { subject: /^Confirm your email/ });
      await t.shot(page, 'verify-banner');

      await page.getByRole('button', { name: 'Send it again' }).click();
      await page.getByRole('status').filter({ hasText: 'A new link is on its way.' }).waitFor();
      await t.shot(page, 'verify-resent');
      const letter = await t.mail.next(email, { subject: /^Confirm your email/ });
      assert.match(letter.text, /Here is a new link/);
      assert.equal(`${letter.link?.origin}${letter.link?.pathname}`, `${publicUrl(t)}/verify-email`);

      await page.goto(letter.link.href);
      await page
        .getByRole('status')
        .filter({ hasText: `${email} is confirmed` })
        .waitFor();
      assert.equal(await page.getByText('Please confirm your email').count(), 0, 'the banner is gone');
      await t.shot(page, 'verify-done');
      await page.getByRole('link', { name: 'Carry on' }).click();
      await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
      assert.equal(await page.getByText('Please confirm your email').count(), 0);

      // The link once more: plainly refused, and the address stays confirmed.
      await page.goto(letter.link.href);
      assert.equal(
        await page.getByRole('alert').innerText(),
        'This link was used already. Ask for a new one if you need it.',
      );
      await t.shot(page, 'verify-link-used');

      // A new address on the account page: the password confirms it, and it is unconfirmed again.
      const moved = t.email('moved');
      await page.goto('/account');
      await page.getByLabel('New email').fill(moved);
      await page.getByLabel('Your password, to confirm it is you').fill('correct horse battery');
      await page.getByRole('button', { name: 'Change email' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Your email is now ${moved}` })
        .waitFor();
      await page.getByText('Please confirm your email').waitFor();
      await t.shot(page, 'email-changed');
      assert.match(
        (await t.mail.next(email, { subject: /email was changed/ })).text,
        new RegExp(moved.replace(/[.+]/g, '\\$&')),
      );
      const confirmNew = await t.mail.next(moved, { subject: /^Confirm your email/ });
      await page.goto(confirmNew.link.href);
      await page
        .getByRole('status')
        .filter({ hasText: `${moved} is confirmed` })
        .waitFor();
    },
  },
];
