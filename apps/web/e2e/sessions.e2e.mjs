// Sessions a person keeps using do not end under them; one that truly ends says so and brings the
// person back where they were. The first scenario runs against an api of its own whose access
// tokens live seconds, so "past the access token's lifetime" is a short wait, not an hour.
import assert from 'node:assert/strict';

import { startOwnApi } from './support/own-api.mjs';
import { composer, say, signIn, startConversation, waitForTurn } from './support/ui.mjs';

/** Long enough for a page to load on a busy machine, short enough to outlive several times. */
const ACCESS_TTL_SECONDS = 6;
const SESSION_ENDED = 'Your session ended; sign in again to carry on.';

/** The access token the client holds now. */
const heldToken = async (page) =>
  JSON.parse((await page.evaluate(() => window.localStorage.getItem('sweatpants.session'))) ?? '{}').token;

const status = async (base, token) =>
  (await fetch(`${base}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })).status;

export const scenarios = [
  {
    name: 'a session outlives its access token: the person keeps working in their conversation',
    async run(t) {
      const api = await startOwnApi('sessions', { JWT_TTL_SECONDS: String(ACCESS_TTL_SECONDS) });
      try {
        const page = await t.page();
        await page.goto(`${api.base}/sign-up`);
        await page.getByLabel('Your name').fill('Sam');
        await page.getByLabel('Email').fill(t.email('sam'));
        await page.getByLabel('Password').fill('correct horse battery');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
        await page
          .getByRole('group', { name: 'Choose an agent' })
          .getByRole('button', { name: /Tidying/ })
          .click();
        await composer(page).fill('My desk is covered in mugs and cables');
        await page.getByRole('button', { name: 'Send', exact: true }).click();
        await page.waitForURL(/\/c\/[^/]+$/, { timeout: 45_000 });
        const conversationUrl = page.url();
        await waitForTurn(page);
        const first = await heldToken(page);

        // Several lifetimes of the first access token go by while the person reads.
        await page.waitForTimeout(ACCESS_TTL_SECONDS * 2_000 + 1_000);
        assert.equal(await status(api.base, first), 401, 'the first access token has expired');
        const now = await heldToken(page);
        assert.notEqual(now, first, 'the client carried the session on with a fresh token');
        assert.equal(await status(api.base, now), 200, 'and the fresh one works');

        // They answer as if nothing happened: over the socket, and the pages read over HTTP.
        await say(page, 'The mugs go to the kitchen');
        await waitForTurn(page);
        assert.equal(page.url(), conversationUrl, 'still in the conversation');
        assert.equal(await page.getByText(SESSION_ENDED).count(), 0, 'no word of an ended session');
        await t.shot(page, 'still-working-after-expiry');

        // A refresh that cannot get through while the token runs out: the first call refused
        // afterwards refreshes, and is sent again, unnoticed.
        await page.route('**/api/auth/refresh', (route) => route.abort());
        const stale = await heldToken(page);
        await page.waitForTimeout(ACCESS_TTL_SECONDS * 1_000 + 1_000);
        assert.equal(await status(api.base, stale), 401, 'the held token has expired');
        await page.unroute('**/api/auth/refresh');
        await page.getByRole('link', { name: 'Reflog' }).first().click();
        await page.locator('app-reflog-page, .reflog').first().waitFor();
        await page.getByRole('link', { name: 'Chat' }).first().click();
        await composer(page).waitFor();
        assert.notEqual(await heldToken(page), stale, 'refreshed on the refusal');
        assert.match(page.url(), new RegExp(`${new URL(conversationUrl).pathname}$`));
        assert.equal(await page.getByText(SESSION_ENDED).count(), 0);

        // Coming back after the token ran out (a reload here): the page starts with the expired
        // token, renews it at once (or at the first refusal, over HTTP or at the socket's
        // handshake, whichever comes first), and the person answers as before.
        await page.route('**/api/auth/refresh', (route) => route.abort());
        const asleep = await heldToken(page);
        await page.waitForTimeout(ACCESS_TTL_SECONDS * 1_000 + 1_000);
        assert.equal(await status(api.base, asleep), 401, 'the held token has expired');
        await page.unroute('**/api/auth/refresh');
        await page.reload();
        await say(page, 'The cables go in the drawer');
        await waitForTurn(page);
        assert.notEqual(await heldToken(page), asleep, 'refreshed on coming back');
        assert.equal(page.url(), conversationUrl);
        await t.shot(page, 'back-after-the-token-ran-out');
      } finally {
        await api.stop();
      }
    },
  },
  {
    name: 'a session taken back sends the person to sign in, saying why, and back to their conversation',
    async run(t) {
      const email = t.email('taken');
      await t.api.register(email, 'Tam');
      const page = await t.page({ phone: true });
      await signIn(page, { email });
      const id = await startConversation(page, 'Tidying', 'The hallway is full of shoes');
      await waitForTurn(page);

      // From another device, the person signs out everywhere: this session ends under them.
      const elsewhere = await t.api.as().login({ body: { email, password: 'correct horse battery' } });
      await t.api.call('POST', '/api/auth/sign-out-everywhere', { token: elsewhere.token });
      await page.waitForURL(/\/sign-in\?/);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('returnUrl'), `/c/${id}`);
      await page.getByRole('status').filter({ hasText: SESSION_ENDED }).waitFor();
      await t.shot(page, 'session-ended');

      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(new RegExp(`/c/${id}$`));
      await page.locator('.bubble--user', { hasText: 'The hallway is full of shoes' }).first().waitFor();
      await waitForTurn(page);
      await t.shot(page, 'back-in-the-conversation');
    },
  },
];
