// Personal access tokens on the account page: a person makes one for a script, copies it (it is
// shown once), sees it listed by name, revokes it after saying so, and the api refuses it at once.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';

import { DESKTOP, PHONE } from './support/context.mjs';

const SHOTS = '/tmp/shots';

const status = async (base, token) =>
  (await fetch(`${base}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })).status;

/** The page at `size`, saved as /tmp/shots/pat-<name>-<size>.png for a person to look at. */
async function keep(page, name, label) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/pat-${name}-${label}.png`, fullPage: true });
}

/** Creates a token named `name` on the open account page; answers the token as the page shows it. */
async function createToken(page, name) {
  const section = page.getByRole('region', { name: 'Personal access tokens' });
  await section.getByLabel('Token name').fill(name);
  await section.getByRole('button', { name: 'Create token' }).click();
  const shown = section.getByLabel('The new token');
  await shown.waitFor();
  await section.getByRole('status').filter({ hasText: "won't be shown again" }).waitFor();
  return { section, shown, token: await shown.inputValue() };
}

function scenario(label, size) {
  return {
    name: `personal access tokens at ${label} width: made, copied once, listed, revoked and refused`,
    async run(t) {
      const auth = await t.api.register(t.email(`pat-${label}`), 'Pat');
      const page = await t.signedInPage(auth, {
        phone: size === PHONE,
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      await page.goto('/account');
      await page.getByRole('heading', { name: 'Personal access tokens' }).waitFor();
      await page.getByText('You have no tokens.').waitFor();

      const { section, shown, token } = await createToken(page, 'laptop');
      assert.match(token, /^spat_[A-Za-z0-9_-]{43}$/, 'the token is shown, whole');
      assert.equal(await shown.evaluate((input) => input === document.activeElement), true, 'focus is on it');
      const copy = section.getByRole('button', { name: 'Copy token' });
      assert.ok(await copy.isVisible(), 'a Copy button beside it');
      await copy.click();
      await section.getByRole('button', { name: 'Copied token' }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), token, 'copied whole');
      await keep(page, 'created', label);
      await t.shot(page, 'token-created');

      // The token works as the person: the api takes it.
      assert.equal(await status(t.base, token), 200, 'the new token is taken by the api');

      // Shown once: after Done (or coming back) only its name is on the page.
      await section.getByRole('button', { name: "Done, I've copied it" }).click();
      // the page redraws after the click: wait for it, a short while, before asking
      await shown.waitFor({ state: 'detached', timeout: 5_000 });
      assert.equal(await shown.count(), 0, 'Done takes the token off the page');
      assert.ok(!(await page.content()).includes(token));
      await page.reload();
      const list = page.getByRole('list', { name: 'Your tokens' });
      const row = list.getByRole('listitem').filter({ hasText: 'laptop' });
      await row.getByText(/last used/).waitFor();
      assert.ok(!(await page.content()).includes(token), 'the token is nowhere on the page again');
      await keep(page, 'listed', label);

      // Revoke asks first; Keep it keeps it.
      await row.getByRole('button', { name: 'Revoke laptop' }).click();
      const question = page.getByRole('alertdialog', { name: /Revoke “laptop”\?/ });
      await question.waitFor();
      await keep(page, 'confirm-revoke', label);
      await t.shot(page, 'confirm-revoke');
      await question.getByRole('button', { name: 'Keep it' }).click();
      await question.waitFor({ state: 'detached', timeout: 5_000 });
      assert.equal(await question.count(), 0);
      assert.equal(await status(t.base, token), 200, 'kept: it still works');

      await row.getByRole('button', { name: 'Revoke laptop' }).click();
      await question.getByRole('button', { name: 'Revoke', exact: true }).click();
      await page.getByRole('status').filter({ hasText: '“laptop” is revoked' }).waitFor();
      await page.getByText('You have no tokens.').waitFor();
      await keep(page, 'revoked', label);
      await t.shot(page, 'token-revoked');
      assert.equal(await status(t.base, token), 401, 'the revoked token is refused at once');
    },
  };
}

export const scenarios = [scenario('phone', PHONE), scenario('desktop', DESKTOP)];
