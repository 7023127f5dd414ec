// Passkeys and the sessions a person can see, in Chromium with a virtual authenticator (the
// DevTools protocol's WebAuthn domain: a platform authenticator that keeps discoverable
// credentials and verifies its user). A person adds a passkey named "this laptop" on the account
// page, signs another device out from the list of where they are signed in, signs out, signs in
// again with the passkey and no password, and removes it; the removed passkey no longer signs in.
import assert from 'node:assert/strict';

import { DESKTOP, PHONE } from './support/context.mjs';
import { signIn } from './support/ui.mjs';

const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

const status = async (base, token) =>
  (await fetch(`${base}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })).status;

/** A device the person signed in on some other day: a password sign-in from another browser. */
async function otherDevice(base, email) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'User-Agent': FIREFOX_ON_WINDOWS },
    body: JSON.stringify({ email, password: 'correct horse battery' }),
  });
  assert.equal(res.status, 200);
  return (await res.json()).token;
}

/** A platform authenticator in this page's browser, as a laptop with a fingerprint reader has. */
async function virtualAuthenticator(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

function scenario(label, size) {
  return {
    name: `passkeys at ${label} width: added, signed in with, removed; another device signed out`,
    async run(t) {
      // Passkeys belong to a site's name: the product is opened at localhost, as PUBLIC_URL's default says.
      const at = t.base.replace('127.0.0.1', 'localhost');
      const email = t.email(`passkey-${label}`);
      const { user } = await t.api.register(email, 'Pia');
      const elsewhere = await otherDevice(t.base, email);

      const page = await t.page({ phone: size === PHONE, at });
      const authenticator = await virtualAuthenticator(page);
      await signIn(page, { email });
      await page.goto('/account');
      const passkeys = page.getByRole('region', { name: 'Passkeys' });
      await passkeys.getByText('You have no passkeys.').waitFor();

      await passkeys.getByLabel('Passkey name').fill('this laptop');
      await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
      await passkeys.getByRole('status').filter({ hasText: '“this laptop” is added' }).waitFor();
      const row = passkeys.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
      await row.filter({ hasText: 'this laptop' }).getByText('never used').waitFor();
      const [made] = await authenticator.credentials();
      assert.equal(made?.isResidentCredential, true, 'a discoverable credential, kept on the device');
      assert.equal(made?.rpId, 'localhost');
      await passkeys.scrollIntoViewIfNeeded();
      await t.shot(page, 'passkey-added');

      // Where the person is signed in: this browser, marked, and the other device, which they sign out.
      const sessions = page.getByRole('region', { name: "Where you're signed in" });
      const devices = sessions.getByRole('list', { name: 'Your signed-in devices' }).getByRole('listitem');
      await devices.filter({ hasText: 'This device' }).getByText('Signed in with your password on').waitFor();
      const other = devices.filter({ hasText: 'Firefox on Windows' });
      await other.waitFor();
      await sessions.scrollIntoViewIfNeeded();
      await t.shot(page, 'sessions-listed');
      assert.equal(await status(t.base, elsewhere), 200, 'the other device is signed in');
      await other.getByRole('button', { name: 'Sign out Firefox on Windows' }).click();
      await sessions.getByRole('status').filter({ hasText: 'Firefox on Windows is signed out.' }).waitFor();
      await other.waitFor({ state: 'detached', timeout: 5_000 });
      assert.equal(await status(t.base, elsewhere), 401, 'the other device is signed out at once');
      await t.shot(page, 'other-device-signed-out');

      // Next time: no email, no password.
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL(/\/sign-in/);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
      await t.shot(page, 'sign-in-page');
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();

      await page.goto('/account');
      await row
        .filter({ hasText: 'this laptop' })
        .getByText(/last used/)
        .waitFor();
      await devices.filter({ hasText: 'This device' }).getByText('Signed in with a passkey on').waitFor();

      // Remove asks first; the password is still a way in, so the passkey may go.
      await row.getByRole('button', { name: 'Remove this laptop' }).click();
      const question = passkeys.getByRole('alertdialog', { name: /Remove “this laptop”\?/ });
      await question.waitFor();
      await t.shot(page, 'confirm-remove');
      await question.getByRole('button', { name: 'Remove', exact: true }).click();
      await passkeys.getByRole('status').filter({ hasText: '“this laptop” is removed' }).waitFor();
      await passkeys.getByText('You have no passkeys.').waitFor();
      await t.shot(page, 'passkey-removed');

      // The device still holds the key, but the site no longer takes it.
      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.getByRole('alert').filter({ hasText: 'That passkey was not accepted here' }).waitFor();
      await t.shot(page, 'removed-passkey-refused');

      // An admin sees all of it in the audit of accounts.
      await t.adminAccount();
      const admin = await t.page({ phone: size === PHONE });
      await signIn(admin, { email: t.adminEmail });
      await admin.goto('/admin');
      await admin.getByRole('link', { name: 'Accounts' }).click();
      await admin.getByRole('heading', { name: 'Audit: accounts' }).waitFor();
      const events = admin.getByRole('list', { name: 'Account activity' }).getByRole('listitem');
      // Everyone's at first, the admin's own sign-in newest; then only the person's.
      const adminsOwn = events.filter({ hasText: t.adminEmail });
      await adminsOwn.first().waitFor();
      await admin.getByLabel('User id').fill(user.id);
      await admin.getByRole('button', { name: 'Search' }).click();
      await adminsOwn.first().waitFor({ state: 'detached' });
      for (const line of [
        'Removed a passkey “this laptop”',
        'Signed in with a passkey on Headless Chrome on Linux',
        'Signed out Firefox on Windows',
        'Added a passkey “this laptop”',
        'Signed in with a password on Headless Chrome on Linux',
        'Signed in with a password on Firefox on Windows',
      ]) {
        await events.filter({ hasText: line }).first().waitFor();
      }
      assert.equal(await events.count(), 6, "the person's six events, and no one else's");
      await t.shot(admin, 'admin-account-audit');
    },
  };
}

export const scenarios = [scenario('phone', PHONE), scenario('desktop', DESKTOP)];
