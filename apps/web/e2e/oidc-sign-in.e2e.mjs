// Sign in with the organisation's identity provider: a real OpenID provider (oidc-provider, started
// here) and the whole authorization code flow in the browser: the product's button, the provider's
// login page, and back, signed in, on the conversations page. Then the same person again (their
// account, not a new one), and a person the provider does not vouch for, who is told why.
import assert from 'node:assert/strict';

import pg from 'pg';

import { freePort } from '../../../scripts/local-services.mjs';
import { startOidcProvider } from '../../api/test/support/oidc-test-provider.mjs';
import { startOwnApi } from './support/own-api.mjs';

const PROVIDER = 'Corp SSO';
const people = {
  robin: { sub: 'robin-1', email: 'robin@corp.example', email_verified: true, name: 'Robin Fields' },
  kai: { sub: 'kai-1', email: 'kai@corp.example', email_verified: true, name: 'Kai Tan' },
  una: { sub: 'una-1', email: 'una@corp.example', email_verified: false, name: 'Una Proven' },
  lee: { sub: 'lee-1', email: 'lee@corp.example', email_verified: true, name: 'Lee Parting' },
  sam: { sub: 'sam-1', email: 'sam@corp.example', email_verified: true, name: 'Sam Parting' },
};

/** Runs one statement on the scenario's own database, as an operator would. */
async function sql(databaseUrl, text, values) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A provider that knows `accounts`, and an api of the scenario's own that signs people in with it
 * (its PUBLIC_URL known beforehand, as the provider must know where to send people back).
 */
async function providerAndApi(name, accounts, env = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const provider = await startOidcProvider({
    clientId: 'sweatpants-e2e',
    clientSecret: 'an-e2e-client-secret',
    redirectUri: `${base}/api/auth/oidc/callback`,
    accounts,
  });
  const api = await startOwnApi(name, {
    PORT: String(port),
    PUBLIC_URL: base,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: 'sweatpants-e2e',
    OIDC_CLIENT_SECRET: 'an-e2e-client-secret',
    OIDC_NAME: PROVIDER,
    ...env,
  }).catch(async (error) => {
    await provider.close();
    throw error;
  });
  return {
    api,
    stop: async () => {
      await api.stop();
      await provider.close();
    },
  };
}

/** The product's button, the provider's page (the person's email), and back to the product. */
async function signInAtProvider(t, page, person, shots) {
  await page.goto('/sign-in');
  const button = page.getByRole('link', { name: `Sign in with ${PROVIDER}` });
  await button.waitFor();
  if (shots) await t.shot(page, 'sign-in-with-provider');
  await button.click();
  await page.getByRole('heading', { name: 'Test identity provider' }).waitFor();
  await page.getByLabel('Email').fill(person.email);
  if (shots) await page.screenshot({ path: `tmp/e2e-screenshots/oidc-provider-page-${shots}.png` });
  await page.getByRole('button', { name: 'Continue' }).click();
}

export const scenarios = [
  {
    name: 'sign in with the identity provider: the code flow lands the person signed in on their conversations (phone and desktop)',
    async run(t) {
      const { api, stop } = await providerAndApi('oidc', Object.values(people));
      try {
        for (const [person, phone] of [
          [people.robin, true],
          [people.kai, false],
        ]) {
          const page = await t.page({ phone, at: api.base });
          await signInAtProvider(t, page, person, phone ? 'phone' : 'desktop');
          await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
          assert.equal(new URL(page.url()).pathname, '/', 'on the conversations page');
          const stored = JSON.parse(await page.evaluate(() => localStorage.getItem('sweatpants.session')));
          assert.equal(stored.user.email, person.email, 'signed in as the provider said');
          assert.equal(stored.user.displayName, person.name);
          if (phone) {
            await t.shot(page, 'signed-in-by-provider');
            // Reloading keeps the session: it is the same session a password sign-in makes.
            await page.reload();
            await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
            // Signed out and in again with the provider: the same account.
            await page.getByRole('button', { name: 'Sign out' }).click();
            await page.getByRole('heading', { name: 'Sign in' }).waitFor();
            await page.getByRole('link', { name: `Sign in with ${PROVIDER}` }).click();
            await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
            const again = JSON.parse(await page.evaluate(() => localStorage.getItem('sweatpants.session')));
            assert.equal(again.user.id, stored.user.id, 'the same account, not a new one');
          } else {
            await t.shot(page, 'desktop-signed-in-by-provider');
          }
        }

        // The provider does not vouch for Una's email: no account, and the page says why.
        const page = await t.page({ at: api.base });
        await signInAtProvider(t, page, people.una, null);
        const alert = page.getByRole('alert');
        await alert.waitFor();
        assert.match(await alert.innerText(), /Corp SSO has not confirmed your email address/);
        assert.equal(new URL(page.url()).pathname, '/sign-in');
        await t.shot(page, 'provider-email-unconfirmed');
      } finally {
        await stop();
      }
    },
  },
  {
    name: 'an account made by the provider, with no password, is deleted after signing in again (phone and desktop)',
    async run(t) {
      const { api, stop } = await providerAndApi('oidc_leave', [people.lee, people.sam]);
      try {
        for (const [person, phone] of [
          [people.lee, true],
          [people.sam, false],
        ]) {
          const size = phone ? 'phone' : 'desktop';
          const page = await t.page({ phone, at: api.base });
          await signInAtProvider(t, page, person, null);
          await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
          // The sign-in was a while ago: a token alone must not delete the account.
          await sql(
            api.databaseUrl,
            `UPDATE refresh_tokens SET signed_in_at = now() - interval '11 minutes'
              WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
            [person.email],
          );
          await page.goto('/account');
          await page
            .getByText('You have no password here, so signing in again confirms it is you.')
            .waitFor();
          assert.equal(await page.getByRole('button', { name: 'Delete my account' }).count(), 0);
          // No form asks for a password the person never had; a mailed link sets one.
          await page.getByRole('heading', { name: 'Set a password' }).waitFor();
          assert.equal(await page.getByLabel('Current password').count(), 0, 'no current password asked');
          assert.equal(await page.getByRole('heading', { name: 'Change your email' }).count(), 0);
          await t.shot(page, `${size}-account-without-password`);
          await page.getByRole('heading', { name: 'Delete your account' }).scrollIntoViewIfNeeded();
          await t.shot(page, `${size}-delete-sign-in-again`);

          await page.getByRole('button', { name: 'Sign in again' }).click();
          await page
            .getByText('Sign in again to confirm it is you; then you can delete your account.')
            .waitFor();
          await page.getByRole('link', { name: `Sign in with ${PROVIDER}` }).click();
          // The provider remembers the person: straight back to the account page, just signed in.
          await page
            .getByText('You have no password here: signing in a moment ago confirms it is you.')
            .waitFor();
          assert.equal(new URL(page.url()).pathname, '/account', 'brought back to finish');
          assert.equal(await page.locator('input[name=deletePassword]').count(), 0, 'no password asked');
          await page.getByLabel('I understand everything is deleted for good').check();
          await page.getByRole('heading', { name: 'Delete your account' }).scrollIntoViewIfNeeded();
          await t.shot(page, `${size}-delete-after-recent-sign-in`);
          await page.getByRole('button', { name: 'Delete my account' }).click();
          await page.getByText('Your account and everything in it are deleted.').waitFor();
          const left = await sql(api.databaseUrl, 'SELECT id FROM users WHERE email = $1', [person.email]);
          assert.deepEqual(left, [], 'the account is gone');
        }
      } finally {
        await stop();
      }
    },
  },
  {
    name: 'password sign-in turned off: only the provider is offered, and it signs the person in',
    async run(t) {
      const { api, stop } = await providerAndApi('oidc_only', [people.robin], { PASSWORD_SIGNIN: 'off' });
      try {
        const page = await t.page({ phone: true, at: api.base });
        await page.goto('/sign-up');
        await page.getByText(`Accounts here are made by signing in with ${PROVIDER}.`).waitFor();
        assert.equal(await page.getByLabel('Password').count(), 0, 'no password form');
        assert.equal(
          await page.getByRole('link', { name: 'Sign up' }).count(),
          0,
          'no sign-up in the top bar',
        );
        await t.shot(page, 'provider-only');
        await page.getByRole('link', { name: `Sign in with ${PROVIDER}` }).click();
        await page.getByLabel('Email').fill(people.robin.email);
        await page.getByRole('button', { name: 'Continue' }).click();
        await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
      } finally {
        await stop();
      }
    },
  },
];
