import assert from 'node:assert/strict';

import { say, signUp, startConversation, waitForTurn } from './support/ui.mjs';

const MESSAGES = ['review my quarantined items', 'B for all of these', 'yes, all of them'];

/** The promotions' card answered with A (archived), and the next card waiting; returns both cards. */
async function archiveThePromotions(page) {
  const promos = page.locator('app-elicit-card.pending', { hasText: 'How should I read these 3 items?' });
  await promos.getByRole('button', { name: /^A\. Newsletter/ }).click();
  await page.locator('ol.log', { hasText: 'Done: 3 updated, now archived, Tier 1.' }).waitFor();
  const next = page.locator('app-elicit-card.pending', { hasText: 'How should I read this item?' });
  await next.waitFor();
  return { promos, next };
}

/** "Rewind to here" on the promotions' card, answered, as a person does it from its actions. */
async function backToThePromotions(page) {
  const answered = page.locator('ol.log > li', { hasText: 'How should I read these 3 items?' }).last();
  await answered.getByRole('button', { name: /^Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Rewind to here' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Go back' }).click();
}

/** Answers whatever the reveal of a chosen option asks. */
async function answerReveal(page) {
  const reveal = page.locator('app-choose-elicit .reveal');
  if (!(await reveal.isVisible())) return;
  const button = reveal.locator('app-confirm-elicit button, .choice').first();
  if (await button.isVisible()) return button.click();
  const box = reveal.locator('textarea, input').first();
  await box.fill('all of them');
  await reveal.getByRole('button', { name: /Answer|Submit/ }).click();
}

export const scenarios = [
  {
    name: 'the concierge interview with a batch choice',
    async run(t) {
      const page = await t.page();
      await signUp(page, { email: t.email('concierge') });
      await startConversation(page, 'Concierge', MESSAGES[0]);
      let chose = false;
      for (let turn = 1; turn < 8 && !chose; turn++) {
        await waitForTurn(page);
        const choose = page.locator('app-elicit-card app-choose-elicit');
        if (await choose.isVisible()) {
          await t.shot(page, 'options');
          const options = choose.locator('.choice');
          const texts = await options.allInnerTexts();
          const batch = texts.findIndex((text) => /all|batch|every/i.test(text));
          await options.nth(batch >= 0 ? batch : 0).click();
          await page.waitForTimeout(200);
          await answerReveal(page);
          chose = true;
          break;
        }
        const card = page.locator('app-elicit-card');
        if (await card.isVisible()) {
          const first = card.locator('.choice, app-confirm-elicit button').first();
          if (await first.isVisible()) await first.click();
          else await card.getByRole('button', { name: 'Skip this' }).click();
          continue;
        }
        await say(page, MESSAGES[Math.min(turn, MESSAGES.length - 1)]);
      }
      assert.ok(chose, 'the concierge offered options to choose from');
      await page.locator('.question__answer').first().waitFor();
      await waitForTurn(page);
      await t.shot(page, 'chosen');

      // The session panel lists what the interview learnt from the pick (its structured output).
      const toggle = page.locator('.side__toggle');
      const folded = (await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false';
      if (folded) await toggle.click();
      const learnt = page.locator('app-state-panel .pile', { hasText: 'Learnt from your picks' });
      await learnt.waitFor();
      assert.ok((await learnt.locator('li').count()) >= 1, 'the panel lists a lesson of the pick');
      await learnt.scrollIntoViewIfNeeded();
      await t.shot(page, 'learnt-in-the-panel');
      if (folded) await toggle.click();

      // On to the recap: its "- " lines are a list the person reads, not Markdown source.
      const recap = page.locator('.bubble--assistant', { has: page.locator('ul > li') }).last();
      for (let turn = 0; turn < 8 && !(await recap.isVisible()); turn++) {
        const card = page.locator('app-elicit-card');
        if (await card.isVisible()) {
          const first = card.locator('.choice, app-confirm-elicit button').first();
          if (await first.isVisible()) await first.click();
          else await card.getByRole('button', { name: 'Skip this' }).click();
          await page.waitForTimeout(200);
          await answerReveal(page);
        } else await say(page, MESSAGES[2]);
        await waitForTurn(page);
      }
      await recap.waitFor({ timeout: 5_000 });
      const said = await recap.innerText();
      assert.ok(!/^\s*[-*] /m.test(said), `the recap shows no Markdown bullets as text:\n${said}`);
      assert.ok((await recap.locator('ul > li').count()) >= 1, 'the recap lists what was decided');
      await recap.scrollIntoViewIfNeeded();
      await t.shot(page, 'recap-as-a-list');
    },
  },
  {
    name: 'a letter typed per sender at a card applies each, and the card comes back for the one left (phone)',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('concierge-split') });
      await startConversation(page, 'Concierge', MESSAGES[0]);
      const card = page.locator('app-elicit-card', { hasText: 'How should I read these 3 items?' });
      await card.waitFor();

      // They buy from Trailgear; Bookbarn they are not sure of yet.
      await say(page, 'B for the Trailgear ones but not sure about Bookbarn');
      await page
        .locator('.bubble--assistant', { hasText: 'B for Trailgear, Trailgear Rewards: applying it.' })
        .waitFor();
      const rest = page
        .locator('app-elicit-card', { hasText: 'How should I read this item?' })
        .filter({ hasText: 'Bookbarn' });
      await rest.waitFor();
      await waitForTurn(page);
      assert.match(await page.locator('ol.log').innerText(), /Now the rest of that card\..*Bookbarn/s);
      assert.equal(await card.count(), 0, 'the card for all three is not asked again');
      await t.shot(page, 'split-pick-rest');

      // The Bookbarn mail, on a card of its own, is a tap like any other.
      await rest.locator('.choice').first().click();
      await rest.waitFor({ state: 'hidden' });
      await waitForTurn(page);
      const toggle = page.locator('.side__toggle');
      if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false')
        await toggle.click();
      // The panel follows HEAD a moment after the card (its reads are coalesced): wait for it.
      const learnt = page.locator('app-state-panel .pile', { hasText: 'Learnt from your picks' });
      await learnt.filter({ hasText: 'Bookbarn' }).waitFor();
      assert.match(
        await learnt.innerText(),
        /Trailgear/,
        'the pick for Trailgear is learnt, and the one for Bookbarn',
      );
      assert.equal(await page.locator('[role=alert]').count(), 0, 'no error anywhere');
      await t.shot(page, 'split-pick-learnt');
    },
  },
  {
    name: 'back to a card after a pause to pick again: only that card waits, and the new pick is applied (desktop)',
    async run(t) {
      const page = await t.page({ phone: false });
      await signUp(page, { email: t.email('concierge-pick-again') });
      await page.getByRole('button', { name: 'Later' }).click();
      await startConversation(page, 'Concierge', MESSAGES[0]);
      // A question about the card first, typed while it waits: the chat runs on past one screen.
      await page.locator('app-elicit-card.pending').waitFor();
      await page.getByPlaceholder(/Or type your answer/).fill('what does tier 2 mean?');
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.locator('ol.log', { hasText: 'Tier 2 means I keep a note' }).waitFor();
      const { promos: first, next: second } = await archiveThePromotions(page);

      // They think it over (the api closes the idle runner), scroll up to the first card and go
      // back to it.
      await page.waitForTimeout(1_000);
      await page
        .locator('ol.log > li', { hasText: 'How should I read these 3 items?' })
        .last()
        .evaluate((answered) => answered.scrollIntoView({ block: 'start' }));
      await backToThePromotions(page);
      await first.waitFor();
      // The card that came after it is gone, not left on screen answering nothing.
      await second.waitFor({ state: 'hidden' });
      assert.equal(await page.locator('app-elicit-card.pending').count(), 1, 'one card waits');
      // What they went back for is in view (a card taller than the pane from its question), not
      // left below the fold where they scrolled up to reach the card's actions.
      await page.waitForTimeout(300);
      const question = await questionInPane(page);
      assert.ok(question.inView, `the card's question is in the chat's pane: ${JSON.stringify(question)}`);
      assert.equal(
        await page.getByRole('button', { name: /Jump to latest/ }).count(),
        0,
        'nothing to jump to',
      );
      await t.shot(page, 'back-to-the-card');

      await first.getByRole('button', { name: /^B\. Promo/ }).click();
      await page.locator('ol.log', { hasText: 'Done: 3 updated, now processed, Tier 2.' }).waitFor();
      await second.waitFor();
      assert.equal(await page.locator('app-elicit-card.pending').count(), 1, 'one card waits');
      assert.equal(await page.locator('[role=alert]').count(), 0, 'no error anywhere');
      await t.shot(page, 'picked-again');
    },
  },
  {
    name: 'a pick taken back puts its mail back: skipped instead, a new review still finds it (phone)',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('concierge-take-back') });
      await startConversation(page, 'Concierge', MESSAGES[0]);
      const { promos } = await archiveThePromotions(page);

      // Second thoughts: back to the card, and skip it this time.
      await backToThePromotions(page);
      await promos.getByRole('button', { name: 'Skip this' }).click();
      await page.locator('app-elicit-card.pending', { hasText: 'How should I read this item?' }).waitFor();
      await t.shot(page, 'skipped-instead');

      // A new review finds the three still waiting: the pick taken back archived nothing.
      await startConversation(page, 'Concierge', MESSAGES[0]);
      await promos.waitFor();
      assert.equal(await page.locator('ol.log', { hasText: 'Done: 3 updated' }).count(), 0);
      await t.shot(page, 'still-in-quarantine');
    },
  },
  {
    name: 'on a phone, a card of explained options taller than the screen shows its question first',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('concierge-phone') });
      await startConversation(page, 'Concierge', MESSAGES[0]);
      const card = page.locator('app-elicit-card.pending');
      for (const pick of ['B. Promo', 'A. Newsletter']) {
        await waitForTurn(page);
        await card.locator('app-choose-elicit').waitFor();
        const question = await questionInPane(page);
        assert.ok(question.inView, `the card's question is in the chat's pane: ${JSON.stringify(question)}`);
        const options = card.locator('.choice');
        const [first, second] = [await options.nth(0).boundingBox(), await options.nth(1).boundingBox()];
        assert.ok(first && second && second.y > first.y, 'explained options are listed one a row');
        assert.equal(await page.getByRole('button', { name: /Jump to latest/ }).count(), 0);
        await t.shot(page, `question-first-${pick[0]}`);
        await card.getByRole('button', { name: pick }).click();
        await page.waitForTimeout(200);
        await answerReveal(page);
      }
    },
  },
];

/** Where the waiting card's question is against the chat's pane (it scrolls; the page does not). */
async function questionInPane(page) {
  const pane = await page.locator('.pane').boundingBox();
  const line = await page.locator('app-elicit-card.pending .elicit__message').first().boundingBox();
  const inView = Boolean(
    pane && line && line.y >= pane.y - 1 && line.y + line.height <= pane.y + pane.height + 1,
  );
  return { inView, pane, line };
}
