import assert from 'node:assert/strict';

import { ApiClient } from './support/api-client.mjs';
import { startFakeAnthropicProcess } from './support/fake-anthropic.mjs';
import { startOwnApi } from './support/own-api.mjs';
import { say, signIn } from './support/ui.mjs';

/** The person's card on the admin's Spend page. */
const personOn = (page, email) =>
  page.getByRole('list', { name: 'Spend by person' }).locator('li', { hasText: email });

export const scenarios = [
  {
    name: 'an admin sees a person’s spend and sets their budget; the person meets the budget message',
    async run(t) {
      const email = t.email('spender');
      const person = await t.api.register(email, 'Sam Spender');
      const { id } = await t.api.createConversation(person.token, 'assistant', 'Errands');
      await t.api.say(person.token, id, 'hello');
      await t.adminAccount();

      // The admin finds the person's spend (the offline model costs nothing) and sets a budget of
      // nothing a day.
      const admin = await t.page();
      await signIn(admin, { email: t.adminEmail });
      await admin.getByRole('link', { name: 'Admin', exact: true }).click();
      await admin.getByRole('link', { name: 'Spend' }).click();
      await admin.getByRole('heading', { name: 'Spend' }).waitFor();
      const card = personOn(admin, email);
      await card.getByText('$0 today · $0 this month').waitFor();
      await card.getByText('Budget: no limit (the default)').waitFor();
      await card.getByRole('button', { name: 'Set budget' }).click();
      await card.getByLabel('Daily budget ($)').fill('0');
      await card.getByRole('button', { name: 'Save budget' }).click();
      await card.getByText('Budget: $0 a day (set for them)').waitFor();
      await card.getByText('Daily budget used up').waitFor();
      await t.shot(admin, 'spend-admin');

      // The person writes: the message stays, and the agent says plainly why it does not answer
      // and when it can again.
      const page = await t.page();
      await signIn(page, { email });
      await page.goto(`/c/${id}`);
      await say(page, 'can you remind me about the post office?');
      const refusal = page.locator('.bubble--assistant', {
        hasText: 'your daily budget of $0.00 is used up',
      });
      await refusal.waitFor();
      assert.match(
        await refusal.innerText(),
        /What you wrote is kept\. The budget resets at midnight UTC, in \d+ (hours?|minutes?)/,
      );
      await page.locator('.bubble--user', { hasText: 'can you remind me about the post office?' }).waitFor();
      await t.shot(page, 'spend-refused');

      // Back to the default (no limit): the same conversation goes on.
      await card.getByRole('button', { name: 'Set budget' }).click();
      await card.getByRole('button', { name: 'Use the default' }).click();
      await card.getByText('Budget: no limit (the default)').waitFor();
      const replies = await page.locator('.bubble--assistant').count();
      await say(page, 'and now?');
      await page.locator('.bubble--assistant').nth(replies).waitFor();
      const last = await page.locator('.bubble--assistant').last().innerText();
      assert.doesNotMatch(last, /budget/, `the conversation goes on: ${last}`);
    },
  },
  {
    name: 'on Claude, an admin sees what a person’s model calls cost',
    async run(t) {
      // An api of its own on Claude: the real SDK against the fake Anthropic server, whose replies
      // carry usage counted as the API counts it, so the calls cost something.
      const fake = await startFakeAnthropicProcess();
      // an admin of this api's own, so its confirmation mail is the only one to that address
      const adminEmail = t.email('spend-admin');
      const api = await startOwnApi('spend_claude', {
        ANTHROPIC_API_KEY: 'e2e-key',
        ANTHROPIC_BASE_URL: fake.url,
        ADMIN_EMAILS: adminEmail,
        MCP_SERVERS: '[]',
        SPEND_LIMIT_MONTHLY_USD: '20',
        // its mail goes to the run's sink: the admin proves their address by its link
        SMTP_URL: t.mail.url,
      });
      try {
        const client = new ApiClient(api.base);
        await client.register(adminEmail, 'Admin');
        // ADMIN_EMAILS makes admins of proven addresses only: the admin opens their mailed link.
        const letter = await t.mail.next(adminEmail, { subject: /^Confirm your email/ });
        await client.call('POST', '/api/auth/verify-email', {
          body: { token: letter.link?.searchParams.get('token') },
        });
        const email = t.email('claude-spender');
        const person = await client.register(email, 'Cleo Claude');
        const { id } = await client.createConversation(person.token, 'assistant', 'Letters');
        await client.say(person.token, id, 'hello');
        await client.say(person.token, id, 'and what about the stamps?');

        const admin = await t.page({ at: api.base });
        await signIn(admin, { email: adminEmail });
        await admin.goto('/admin/spend');
        await admin.getByRole('heading', { name: 'Spend' }).waitFor();
        await admin.getByText("Everyone's budget unless set for them: $20.00 a month.").waitFor();
        const card = personOn(admin, email);
        const spent = card.getByText(/^\$0\.\d+ today · \$0\.\d+ this month$/);
        await spent.waitFor();
        assert.match(await spent.innerText(), /[1-9]/, 'the calls cost something');
        await card.getByText('Budget: $20.00 a month (the default)').waitFor();
        await t.shot(admin, 'spend-on-claude');
      } finally {
        await api.stop();
        await fake.stop();
      }
    },
  },
];
