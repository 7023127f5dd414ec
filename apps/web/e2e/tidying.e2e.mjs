import assert from 'node:assert/strict';

import { PNG, say, signUp, startConversation, waitForTurn } from './support/ui.mjs';

const FOLLOW_UPS = ['a coffee mug', 'a stack of old papers', 'the desk lamp', 'a broken charger'];

export const scenarios = [
  {
    name: 'a tidying session: a photo, then one-tap dispositions',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('tidy') });
      await page.getByText('offline model').first().waitFor();
      await t.shot(page, 'start');

      // The first message makes the conversation: a photo and what it shows.
      await startConversation(page, 'Tidying coach', 'My desk is covered in mugs, papers and a lamp', {
        photo: PNG,
      });
      // The photo is a stored blob, fetched with the token: shown once its bytes have loaded.
      const sent = page.locator('.bubble--user img');
      await sent.first().waitFor();
      await page.waitForFunction(() => {
        const img = document.querySelector('.bubble--user img');
        return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
      });
      assert.ok(
        (await sent.first().getAttribute('src'))?.startsWith('blob:'),
        'the photo is shown from its blob',
      );
      await waitForTurn(page);
      await t.shot(page, 'photo-sent');

      // The agent proposes where items go; answer with one tap, and say more when it asks.
      let tapped = 0;
      for (let turn = 0; turn < 8 && tapped < 2; turn++) {
        await waitForTurn(page);
        const card = page.locator('app-propose-disposition-elicit .choice').first();
        if (await card.isVisible()) {
          const label = (await card.innerText()).split('\n')[0].trim();
          await card.click();
          tapped++;
          await page
            .locator('.question__answer', { hasText: label.slice(0, 12) })
            .first()
            .waitFor();
          if (tapped === 1) await t.shot(page, 'disposition-tapped');
          continue;
        }
        const other = page.locator('app-elicit-card');
        if (await other.isVisible()) {
          // Some other question: pick its first option, or skip it.
          const question = await other.locator('.elicit__message').innerText();
          const first = other.locator('.choice, app-confirm-elicit button').first();
          if (await first.isVisible()) await first.click();
          else await other.getByRole('button', { name: 'Skip this' }).click();
          // The answered card goes before the next turn is waited for, or that wait sees it still.
          await page.locator('app-elicit-card', { hasText: question }).waitFor({ state: 'hidden' });
          continue;
        }
        await say(page, FOLLOW_UPS[turn % FOLLOW_UPS.length]);
      }
      assert.ok(tapped >= 1, 'the agent proposed at least one disposition that a tap answered');
      await page.getByRole('button', { name: /session details/ }).click();
      await page.getByRole('heading', { name: 'Session' }).waitFor();
      await t.shot(page, 'session');
    },
  },
];
