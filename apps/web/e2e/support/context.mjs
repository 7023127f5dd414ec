// What every scenario gets: the browser, the api client, fresh pages, and screenshots at the two
// widths the client is designed for.
import { join } from 'node:path';

import { ApiClient } from './api-client.mjs';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };
const SESSION_KEY = 'sweatpants.session';

export function createContext({ browser, base, shotDir, adminEmail, mail, scenario, audit }) {
  const contexts = [];
  const pages = [];
  const slug = scenario
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  let shots = 0;

  const ctx = {
    base,
    adminEmail,
    api: new ApiClient(base),
    /** every address's mailbox (support/mail-sink.mjs): `await t.mail.next(email)` */
    mail,

    /**
     * The run's admin account (ADMIN_EMAILS names `adminEmail`), made by the first scenario that
     * asks and proven by its mailed link: ADMIN_EMAILS makes admins of proven addresses only.
     */
    async adminAccount() {
      try {
        await ctx.api.register(adminEmail, 'Admin');
      } catch (error) {
        if (error.status !== 409) throw error;
        return;
      }
      await ctx.proveEmail(adminEmail);
    },

    /**
     * Proves `email` as its owner would: opens the link of the next confirmation mail to it. A
     * session signed in before says so from its next refresh; a new sign-in at once.
     */
    async proveEmail(email) {
      const letter = await mail.next(email, { subject: /^Confirm your email/ });
      await ctx.api.call('POST', '/api/auth/verify-email', {
        body: { token: letter.link?.searchParams.get('token') },
      });
    },

    /** A fresh, unused email address. */
    email(prefix = 'person') {
      return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
    },

    /**
     * A new browser context (no shared storage) and a page in it. `permissions` are granted to the
     * client's origin (as a person who said yes to the browser's prompt), and `geolocation` is
     * where the device says it is. `at` is the base url of an api of the scenario's own (see
     * own-api.mjs), whose client the page's relative urls then open.
     */
    async page({ phone = false, permissions = [], geolocation, at = base } = {}) {
      const context = await browser.newContext({
        viewport: phone ? PHONE : DESKTOP,
        baseURL: at,
        ...(geolocation ? { geolocation } : {}),
      });
      if (permissions.length > 0) await context.grantPermissions(permissions, { origin: at });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      pages.push(page);
      return page;
    },

    /** A page already signed in as `auth` ({token, user}), as the client stores a session. */
    async signedInPage(auth, options) {
      const page = await ctx.page(options);
      await page.addInitScript(
        ([key, value]) => window.localStorage.setItem(key, value),
        [SESSION_KEY, JSON.stringify({ token: auth.token, user: auth.user })],
      );
      return page;
    },

    /**
     * Screenshots of the page at phone and desktop widths,
     * tmp/e2e-screenshots/<scenario>-<n>-<name>-<width>.png, each checked by axe-core: every state
     * worth a picture is a state whose accessibility is checked.
     */
    async shot(page, name) {
      const original = page.viewportSize();
      shots += 1;
      for (const [label, size] of [
        ['phone', PHONE],
        ['desktop', DESKTOP],
      ]) {
        await page.setViewportSize(size);
        await page.waitForTimeout(150);
        // The viewport, as a person sees it: a full-page capture misplaces the sticky composer.
        await page.screenshot({ path: join(shotDir, `${slug}-${shots}-${name}-${label}.png`) });
        await audit.check(page, `${slug}-${shots}-${name}-${label}`);
      }
      if (original) {
        await page.setViewportSize(original);
        await settled(page);
      }
    },

    async failureShot() {
      const page = pages.at(-1);
      if (page && !page.isClosed()) {
        await page.screenshot({ path: join(shotDir, `${slug}-FAILED.png`), fullPage: true });
      }
    },

    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
    },
  };
  return ctx;
}

/**
 * Waits until the page stops moving after a change of viewport: the sidebar comes or goes a moment
 * after the resize and the chat follows it. A click in that moment would have the browser scroll
 * its target into view, which the chat takes for the person scrolling back to read.
 */
async function settled(page) {
  let last = '';
  for (let same = 0, tries = 0; same < 3 && tries < 40; tries++) {
    const now = await page.evaluate(
      () =>
        new Promise((resolve) =>
          requestAnimationFrame(() =>
            resolve(`${window.scrollY}:${document.documentElement.scrollHeight}:${window.innerWidth}`),
          ),
        ),
    );
    same = now === last ? same + 1 : 0;
    last = now;
  }
}
