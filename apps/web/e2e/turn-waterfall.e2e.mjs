// The operator's picture of a turn (issue 33): an admin opens a conversation's Turns tab, goes to
// its slowest turn and its costliest in one click each, and reads each as a waterfall of model
// calls and writes on the turn's clock, with their time, tokens and cost. Runs against an api of
// its own on Claude: the real SDK against the fake Anthropic server on a model's clock, so each
// call takes time worth seeing and costs what its usage costs.
import assert from 'node:assert/strict';

import { ApiClient } from './support/api-client.mjs';
import { startFakeAnthropicProcess } from './support/fake-anthropic.mjs';
import { startOwnApi } from './support/own-api.mjs';

/** The fake model's first token comes after this long: a call lasts at least this. */
const FIRST_TOKEN_MS = 300;
const ADMIN = 'turns-admin@example.com';

export const scenarios = [
  {
    name: 'an admin opens the slowest and the costliest turn of a conversation as waterfalls',
    async run(t) {
      // The assistant with no MCP servers: one model call a message, answered in words.
      const fake = await startFakeAnthropicProcess({
        timing: { firstTokenMs: FIRST_TOKEN_MS, tokensPerSecond: 200 },
      });
      const api = await startOwnApi('turns', {
        ANTHROPIC_API_KEY: 'e2e-key',
        ANTHROPIC_BASE_URL: fake.url,
        ADMIN_EMAILS: ADMIN,
        MCP_SERVERS: '[]',
        // its mail goes to the run's sink: the admin proves their address by its link
        SMTP_URL: t.mail.url,
      });
      try {
        const client = new ApiClient(api.base);
        const person = await client.register(t.email('turns'), 'Turns');
        const { id } = await client.createConversation(person.token, 'assistant', 'Lamp');
        await client.settle(person.token, id);
        for (const text of [
          'hello',
          'what should I do with the old lamp, the box of cables and the two chairs by the window that nobody sits on any more?',
        ]) {
          await client.as(person.token).sendMessage({ params: { id }, body: { text } });
          await client.settle(person.token, id);
        }
        await client.register(ADMIN, 'Admin');
        // ADMIN_EMAILS makes admins of proven addresses only: the admin opens their mailed link.
        const letter = await t.mail.next(ADMIN, { subject: /^Confirm your email/ });
        await client.call('POST', '/api/auth/verify-email', {
          body: { token: letter.link?.searchParams.get('token') },
        });
        const admin = await client.as().login({
          body: { email: ADMIN, password: 'correct horse battery' },
        });

        const page = await t.signedInPage(admin, { at: api.base });
        await page.goto(`/admin/c/${id}`);
        await page.getByText('read-only (admin)').waitFor();
        await page.getByRole('link', { name: 'Turns' }).click();
        const turns = page.getByRole('list', { name: 'Turns' });
        await turns.getByRole('button', { name: /^Turn 1 hello/ }).waitFor();
        assert.equal(await turns.locator(':scope > li').count(), 2, 'one turn per message');

        // The slowest, one click away: listed first, opened, its bars in words beside them.
        const slowest = page.getByRole('button', { name: /^Slowest: turn \d/ });
        const slowestNumber = (await slowest.innerText()).match(/turn (\d+)/)?.[1];
        await slowest.click();
        await page.getByRole('button', { name: 'Slowest first', pressed: true }).waitFor();
        const opened = turns.locator(':scope > li').first();
        await opened
          .getByRole('button', { expanded: true, name: new RegExp(`^Turn ${slowestNumber} `) })
          .waitFor();
        const waterfall = opened.getByRole('list', { name: `Turn ${slowestNumber}, where its time went` });
        const model = waterfall.locator('li', { hasText: 'Model call' }).first();
        await model.waitFor();
        const words = await model.innerText();
        assert.match(words, /claude-/);
        // the model's clock is on its bar: at least its first token's time, from when it was asked
        const [, seconds] = words.match(/(\d+\.\d+) s, from/) ?? [];
        assert.ok(Number(seconds) * 1000 >= FIRST_TOKEN_MS, `the model call took its time: ${words}`);
        // its tokens and what they cost, at the model's published prices
        assert.match(words, /[\d,]+ tokens in.* · \d+ out · \$0\.\d*[1-9]/);
        await waterfall.locator('li', { hasText: 'Stored' }).first().waitFor();
        await t.shot(page, 'slowest-turn');

        // The costliest, in dollars, one click away too.
        const costliestButton = page.getByRole('button', { name: /^Costliest: turn \d+ · \$0\.\d+$/ });
        const costliestNumber = (await costliestButton.innerText()).match(/turn (\d+)/)?.[1];
        await costliestButton.click();
        await page.getByRole('button', { name: 'Costliest first', pressed: true }).waitFor();
        const costliest = turns.locator(':scope > li').first();
        await costliest
          .getByRole('button', { expanded: true, name: new RegExp(`^Turn ${costliestNumber} `) })
          .waitFor();
        await costliest.getByRole('list', { name: `Turn ${costliestNumber}, where its time went` }).waitFor();
        // the bars fit the phone: each row of the waterfall, its bar and its words, within the width
        await page.setViewportSize({ width: 390, height: 844 });
        await costliest.scrollIntoViewIfNeeded();
        const past = await costliest.evaluate((turn) =>
          [...turn.querySelectorAll('.row-item, .track, .bar, .figures')]
            .map((el) => Math.round(el.getBoundingClientRect().right - window.innerWidth))
            .filter((over) => over > 0),
        );
        assert.deepEqual(past, [], "the waterfall fits a phone's width");
        await t.shot(page, 'costliest-turn');
      } finally {
        await api.stop();
        await fake.stop();
      }
    },
  },
];
