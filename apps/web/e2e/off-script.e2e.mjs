import assert from 'node:assert/strict';

import {
  assertNewestInView,
  chatText,
  composer,
  PNG,
  say,
  signUp,
  startConversation,
  waitForTurn,
} from './support/ui.mjs';

const QUESTION = 'What do you need to DO in this space?';

/** Answers whatever comes before the question this scenario is about: a first card, or a message. */
async function untilTheQuestion(page) {
  const question = page.locator('app-elicit-card', { hasText: QUESTION });
  for (let turn = 0; turn < 6; turn++) {
    await waitForTurn(page);
    if (await question.isVisible()) return question;
    const card = page.locator('app-elicit-card');
    if (await card.isVisible()) {
      const asked = await card.locator('.elicit__message').innerText();
      await card.getByRole('button', { name: 'Skip this' }).click();
      await page.locator('app-elicit-card', { hasText: asked }).waitFor({ state: 'hidden' });
      continue;
    }
    await say(page, 'a coffee mug');
  }
  assert.fail(`the agent never asked "${QUESTION}"`);
}

/**
 * A new account's desk session, its purpose typed ("writing letters"), up to the coach's first
 * card: the mugs'. Returns that card.
 */
async function atTheMugsCard(t, page, who) {
  await signUp(page, { email: t.email(who) });
  await startConversation(page, 'Tidying coach', 'My desk is covered in mugs, papers and a lamp', {
    photo: PNG,
  });
  await untilTheQuestion(page);
  await composer(page).fill('writing letters');
  await composer(page).press('Enter');
  await waitForTurn(page);
  const mugs = page.locator('app-elicit-card', { hasText: 'What about the mugs?' });
  await mugs.waitFor();
  return mugs;
}

/** The card and the composer under it, both on screen, neither over the other. */
async function assertComposerUnderCard(page, card) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    const c = await card.boundingBox();
    const box = await composer(page).boundingBox();
    const send = await page.getByRole('button', { name: 'Send', exact: true }).boundingBox();
    assert.ok(c && box && send, 'the card, the composer and its Send button are shown');
    assert.ok(box.y >= c.y + c.height, `at ${size.width}px the composer is below the card, not over it`);
    assert.ok(
      box.y + box.height <= size.height + 1,
      `at ${size.width}px the composer is in the viewport: ${JSON.stringify({ c, box, size })}`,
    );
    assert.ok(send.x + send.width <= size.width + 1, `at ${size.width}px the Send button fits the width`);
  }
}

export const scenarios = [
  {
    name: 'typing an answer of one’s own while a question card waits',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('offscript') });
      await startConversation(page, 'Tidying coach', 'My desk is covered in mugs, papers and a lamp', {
        photo: PNG,
      });

      const card = await untilTheQuestion(page);
      // The card is shown and the ordinary composer stays open under it.
      await composer(page).waitFor();
      assert.equal(await composer(page).getAttribute('placeholder'), 'Or type your answer…');
      await assertComposerUnderCard(page, card);
      await t.shot(page, 'question-and-composer');

      await composer(page).fill('writing letters');
      await composer(page).press('Enter');
      await card.waitFor({ state: 'hidden' });
      await page.locator('ol.log .bubble--user', { hasText: 'writing letters' }).waitFor();
      const log = await page.locator('ol.log').innerText();
      assert.ok(!log.includes('Something else: writing letters'), 'the words read as typed');

      // The words answered the question: the session moves on to a proposal about an item.
      await waitForTurn(page);
      await page.locator('app-elicit-card app-propose-disposition-elicit').waitFor();
      assert.equal(await page.locator('app-elicit-card', { hasText: QUESTION }).count(), 0);
      await page.locator('ol.log', { hasText: 'writing letters' }).waitFor();
      await composer(page).waitFor();
      await assertComposerUnderCard(page, page.locator('app-elicit-card'));
      await t.shot(page, 'next-card');
      // Scrolled back: the question, then the user's words as their message, above the dock.
      await page.setViewportSize({ width: 390, height: 844 });
      const asked = page.locator('ol.log .question', { hasText: QUESTION });
      await asked.evaluate((el) => {
        const show = () => el.scrollIntoView({ block: 'start' });
        show();
        // The screenshots change the viewport's size: keep the question at the top at both.
        window.addEventListener('resize', show);
      });
      const words = await page.locator('ol.log .bubble--user', { hasText: 'writing letters' }).boundingBox();
      const dock = await page.locator('.dock').boundingBox();
      assert.ok(words && dock && words.y + words.height <= dock.y, 'the words show above the dock');
      // Scrolling the chat to a message (as find in page does) moves the chat, never the header.
      const menu = await page.getByRole('button', { name: 'Conversations', exact: true }).boundingBox();
      assert.ok(menu && menu.y >= 0, `the header stays on screen: ${JSON.stringify(menu)}`);
      assert.equal(await page.evaluate(() => window.scrollY), 0, 'the page itself did not scroll');
      await t.shot(page, 'own-words-in-chat');
    },
  },
  {
    name: 'words typed at a question can be edited: the question is answered again by the new words',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('edit-words') });
      await startConversation(page, 'Tidying coach', 'My desk is covered in mugs, papers and a lamp', {
        photo: PNG,
      });
      await untilTheQuestion(page);
      await composer(page).fill('writing leters');
      await composer(page).press('Enter');
      await waitForTurn(page);

      // The typo is the person's own words, edited as a message is.
      const typed = page.locator('app-chat-node', {
        has: page.locator('.bubble--user', { hasText: 'writing leters' }),
      });
      await typed.getByRole('button', { name: /^Actions for your message/ }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const box = page.getByLabel('Edit your message');
      assert.equal(await box.inputValue(), 'writing leters', 'the box holds the words as typed');
      await box.fill('writing letters');
      await page.getByRole('button', { name: 'Save as a new branch' }).click();

      // The question is answered again, by the new words, on a branch of its own; the coach goes
      // on from them, and the space is for what the new words say.
      const fixed = page.locator('app-chat-node', {
        has: page.locator('.bubble--user', { hasText: 'writing letters' }),
      });
      await fixed.waitFor();
      await waitForTurn(page);
      assert.match(await fixed.getByRole('navigation', { name: 'Branches' }).innerText(), /2\/2/);
      const log = await chatText(page);
      assert.ok(!log.includes('writing leters'), 'the old words belong to the old branch');
      assert.ok(log.includes(QUESTION), 'the question stays in the chat, above the new words');
      const details = page.getByRole('button', { name: /session details/ });
      if (await details.isVisible()) await details.click();
      await page.locator('app-state-panel', { hasText: 'writing letters' }).waitFor();
      await t.shot(page, 'words-edited');
    },
  },
  {
    name: '“undo that” after a tap brings the card back, and the new tap is where the thing goes',
    async run(t) {
      const page = await t.page({ phone: true });
      const mugs = await atTheMugsCard(t, page, 'undo');
      await mugs.getByRole('button', { name: /Kitchen/ }).click();
      await mugs.waitFor({ state: 'hidden' });
      await waitForTurn(page);

      // They meant the recycling: "undo that" takes the kitchen back and asks about the mugs again.
      await say(page, 'undo that');
      await waitForTurn(page);
      await page
        .locator('.bubble--assistant', { hasText: "Taken back: let's decide the mugs again." })
        .waitFor();
      const again = page.locator('app-elicit-card', { hasText: 'What about the mugs?' });
      await again.waitFor();
      await assertNewestInView(page, 'with the mugs asked about again');
      const details = page.getByRole('button', { name: /session details/ });
      if (await details.isVisible()) await details.click();
      // The panel follows HEAD a moment after the card (its reads are coalesced): wait for it.
      const panel = page.locator('app-state-panel');
      await panel.filter({ hasNotText: 'mugs → kitchen' }).waitFor();
      assert.doesNotMatch(await panel.innerText(), /mugs → kitchen/, 'the mugs are off the out pile');
      await t.shot(page, 'undo-card-again');

      await again.getByRole('button', { name: /Recycle/ }).click();
      await again.waitFor({ state: 'hidden' });
      await waitForTurn(page);
      await panel.filter({ hasText: 'mugs → recycling' }).waitFor();
      assert.ok((await chatText(page)).includes('undo that'), 'their words are kept');
      await t.shot(page, 'undo-recycled');
    },
  },
  {
    name: 'two things decided in one message both land, typed at a card or at the prompt',
    async run(t) {
      const page = await t.page({ phone: true });
      const mugs = await atTheMugsCard(t, page, 'two-at-once');

      // At the mugs' card: the card takes the mugs, and the lamp lands too, said in a line.
      await say(page, 'the mugs go to the kitchen and the lamp in the bin');
      await mugs.waitFor({ state: 'hidden' });
      await waitForTurn(page);
      await page.locator('.bubble--assistant', { hasText: 'The lamp goes in the trash.' }).waitFor();
      await page.locator('.bubble--assistant', { hasText: 'The mugs go out, to the kitchen.' }).waitFor();
      const details = page.getByRole('button', { name: /session details/ });
      if (await details.isVisible()) await details.click();
      const panel = page.locator('app-state-panel');
      await panel.filter({ hasText: 'lamp → trash' }).waitFor();
      assert.match(await panel.innerText(), /mugs → kitchen/);
      await t.shot(page, 'two-at-a-card');

      // At the prompt that names the papers: both things in one message, no verb, land as said.
      await say(page, 'papers on the shelf and the lamp on the nightstand');
      await waitForTurn(page);
      await page
        .locator('.bubble--assistant', {
          // the shelf is a spot of this desk's room: the papers are put on it
          hasText: /Put the papers on the shelf\. Take the lamp to the nightstand\./,
        })
        .waitFor();
      await panel.filter({ hasText: 'lamp → nightstand' }).waitFor();
      const piles = await panel.innerText();
      assert.doesNotMatch(piles, /lamp → trash/, 'the lamp moved to where it was said to go');
      assert.match(piles, /papers/);
      assert.equal(
        await page
          .locator('app-elicit-card', { hasText: /What about the (lamp|shelf|nightstand)\?/ })
          .count(),
        0,
      );
      assert.ok(
        (await chatText(page)).includes('papers on the shelf and the lamp on the nightstand'),
        'their words are kept',
      );
      await assertNewestInView(page, 'after two things in one message');
      await t.shot(page, 'two-at-the-prompt');
    },
  },
  {
    name: 'a thing told all in its parts at its card is done: its card does not come back, its parts are on their piles',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('in-parts') });
      await startConversation(page, 'Tidying coach', 'my hallway: a pile of post and some coats');
      const question = await untilTheQuestion(page);
      await question.getByRole('button', { name: 'coming and going', exact: true }).click();
      await waitForTurn(page);
      const post = page.locator('app-elicit-card', { hasText: 'What about the post?' });
      await post.waitFor();

      await say(page, 'bills on the side table, flyers in the recycling');
      await post.waitFor({ state: 'hidden' });
      await waitForTurn(page);
      await page
        .locator('.bubble--assistant', {
          hasText: 'Put the bills on the side table. Put the flyers in the recycling.',
        })
        .waitFor();
      await page.locator('.bubble--assistant', { hasText: "That's all of the post sorted." }).waitFor();
      assert.equal(await post.count(), 0, 'the post’s card is not asked again for a rest');
      assert.match(
        await page.locator('ol.log > li').last().innerText(),
        /Next, the coats: say go/,
        'the next thing is named last',
      );
      await page.locator('ol.log .bubble--user', { hasText: 'bills on the side table' }).waitFor();
      await assertNewestInView(page, 'after the parts landed');
      await t.shot(page, 'told-in-parts');

      // On a wide screen the panel has each part where it was said, and the post no more to go.
      await page.setViewportSize({ width: 1280, height: 800 });
      const panel = page.locator('app-state-panel');
      await panel.filter({ hasText: 'bills → side table' }).waitFor();
      const piles = await panel.innerText();
      assert.match(piles, /flyers → recycling/);
      assert.match(piles, /Still to go[\s\S]*coats/);
      assert.doesNotMatch(piles, /\bpost\b/, 'the post itself is on no pile and not still to go');
      await t.shot(page, 'told-in-parts-panel');
    },
  },
  {
    name: '“undo that too” at the card taken back brings the one before it back as well (desktop)',
    async run(t) {
      const page = await t.page({ phone: false });
      const mugs = await atTheMugsCard(t, page, 'undo-too');
      await mugs.getByRole('button', { name: /Kitchen/ }).click();
      await mugs.waitFor({ state: 'hidden' });
      await waitForTurn(page);
      await say(page, 'go');
      await waitForTurn(page);
      const papers = page.locator('app-elicit-card', { hasText: 'What about the papers?' });
      await papers.getByRole('button', { name: /File it/ }).click();
      await papers.waitFor({ state: 'hidden' });
      await waitForTurn(page);

      // Both were wrong: "undo that" takes the papers back, "undo that too" at their card the mugs.
      await say(page, 'undo that');
      await waitForTurn(page);
      await papers.waitFor();
      await say(page, 'undo that too');
      await waitForTurn(page);
      await page
        .locator('.bubble--assistant', { hasText: "Taken back: let's decide the mugs again." })
        .waitFor();
      const mugsAgain = page.locator('app-elicit-card', { hasText: 'What about the mugs?' });
      await mugsAgain.getByRole('button', { name: /Recycle/ }).click();
      await mugsAgain.waitFor({ state: 'hidden' });
      await waitForTurn(page);

      // The papers' card comes back after the mugs', and each new tap is where the thing goes.
      const papersAgain = page.locator('app-elicit-card', { hasText: 'What about the papers?' });
      await papersAgain.getByRole('button', { name: /Recycle/ }).click();
      await papersAgain.waitFor({ state: 'hidden' });
      await waitForTurn(page);
      const panel = page.locator('app-state-panel');
      await panel.filter({ hasText: 'papers → recycling' }).waitFor();
      const piles = await panel.innerText();
      assert.match(piles, /mugs → recycling/, 'the mugs went to the recycling, not the kitchen');
      assert.doesNotMatch(piles, /mugs → kitchen/);
      await assertNewestInView(page, 'after the cards taken back are answered again');
      await t.shot(page, 'undo-too');
    },
  },
  {
    name: 'a tangent inside a card comes back to it, and the session ends with where everything went',
    async run(t) {
      const page = await t.page({ phone: false });
      const mugs = await atTheMugsCard(t, page, 'tangent');

      // A question of the user's own in the middle of the card: it stays in the chat, and the
      // card comes back after the coach's answer, marked as the question it returns to.
      await composer(page).fill('wait, where do cables usually go?');
      await composer(page).press('Enter');
      await page.locator('ol.log .bubble--user', { hasText: 'wait, where do cables usually go?' }).waitFor();
      await waitForTurn(page);
      await page.locator('app-elicit-card', { hasText: 'Back to this question' }).waitFor();
      await mugs.waitFor();
      await t.shot(page, 'card-back-after-tangent');

      // One tap: the mugs go to the kitchen, out of this room, and the panel says so.
      await mugs.getByRole('button', { name: /Kitchen/ }).click();
      await mugs.waitFor({ state: 'hidden' });
      await waitForTurn(page);
      await page.locator('app-state-panel', { hasText: 'mugs → kitchen' }).waitFor();

      await say(page, "I'm done");
      await waitForTurn(page);
      await page.locator('ol.log', { hasText: 'Out (1): mugs → kitchen' }).waitFor();
      await page.locator('app-state-panel', { hasText: 'ended' }).waitFor();
      const log = await page.locator('ol.log').innerText();
      assert.ok(log.includes('wait, where do cables usually go?'), 'the tangent is still in the chat');
      await t.shot(page, 'recap');
    },
  },
  {
    name: '“I’m done” typed at a waiting card ends there: the card goes, the recap is the last word',
    async run(t) {
      // The tidying coach, on a phone: the mugs' card waits, and the person has had enough.
      const page = await t.page({ phone: true });
      await atTheMugsCard(t, page, 'done-at-card');
      // As a phone types it, with a curly apostrophe.
      await composer(page).fill('I’m done');
      await composer(page).press('Enter');
      await page.locator('ol.log', { hasText: 'Session done' }).waitFor();
      await waitForTurn(page);
      assert.equal(await page.locator('app-elicit-card').count(), 0, 'no card is asked after the recap');
      await page.locator('ol.log .bubble--user', { hasText: 'I’m done' }).waitFor();
      await assertNewestInView(page, 'after the recap');
      assert.match(
        await page.locator('ol.log > li').last().innerText(),
        /Session done/,
        'the recap is the last word',
      );
      await t.shot(page, 'tidying-done-at-card');

      // The concierge, on a desktop: a card of readings waits; the person stops the review there.
      const desk = await t.page({ phone: false });
      await signUp(desk, { email: t.email('done-at-review') });
      await startConversation(desk, 'Concierge', 'review my quarantined items');
      await waitForTurn(desk);
      const readings = desk.locator('app-elicit-card', { hasText: 'How should I read' });
      await readings.waitFor();
      await composer(desk).fill("I'm done for today");
      await composer(desk).press('Enter');
      await desk.locator('ol.log', { hasText: 'The review is over' }).waitFor();
      await waitForTurn(desk);
      assert.equal(
        await desk.locator('app-elicit-card').count(),
        0,
        'the card is set aside, not asked again',
      );
      const log = await chatText(desk);
      assert.ok(log.includes('We can stop here'), 'the coach says the review stops');
      assert.ok(log.includes("I'm done for today"), 'the words are kept in the chat');
      await t.shot(desk, 'concierge-done-at-card');

      // The donation helper, on a phone, asked about two things: at its first question, about the
      // kettle, the person stops; nothing more is asked about either, not even the coat's form.
      const helper = await t.page({ phone: true });
      await signUp(helper, { email: t.email('done-at-form') });
      await startConversation(helper, 'Donation helper', 'my old kettle and a winter coat');
      await waitForTurn(helper);
      await helper.locator('app-elicit-card', { hasText: 'A little about the old kettle' }).waitFor();
      await composer(helper).fill("I'm done");
      await composer(helper).press('Enter');
      await helper.locator('ol.log', { hasText: 'All right, we stop here.' }).waitFor();
      await waitForTurn(helper);
      assert.equal(
        await helper.locator('app-elicit-card').count(),
        0,
        'the question is set aside, and no form follows for the coat',
      );
      assert.ok(!(await chatText(helper)).includes('A little about the winter coat'), 'no form for the coat');
      await assertNewestInView(helper, 'after the questions were set aside');
      await t.shot(helper, 'donations-done-at-form');
    },
  },
  {
    name: 'what is there, typed at the space’s question, is not its purpose: the coach goes through those things after it',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('what-is-there') });
      await startConversation(page, 'Tidying coach', 'My desk is a mess, help', { photo: PNG });
      const question = await untilTheQuestion(page);
      await composer(page).fill("there's a laptop, three mugs, a stack of papers and a broken lamp");
      await composer(page).press('Enter');
      await waitForTurn(page);
      // The question comes back, pointed to: the things are not what the space is for.
      await page
        .locator('ol.log', { hasText: 'First the card below: what do you need to do in this space?' })
        .waitFor();
      await question.waitFor();
      assert.ok(
        !(await chatText(page)).includes('this space is for there'),
        'the list is not taken as the purpose',
      );
      await t.shot(page, 'question-back');

      // Answered, the coach starts with the first thing they named, and names the next after it.
      await question.getByRole('button', { name: 'working', exact: true }).click();
      await waitForTurn(page);
      const laptop = page.locator('app-elicit-card', { hasText: 'laptop' });
      await laptop.waitFor();
      await laptop.getByRole('button', { name: /Keep/ }).first().click();
      await waitForTurn(page);
      await page.locator('ol.log', { hasText: 'Next, the mugs' }).waitFor();
      await assertNewestInView(page, 'after the first thing named');
      await t.shot(page, 'first-named-sorted');
      // On a wide screen the session panel lists what is still to go, the laptop no longer in it.
      await page.setViewportSize({ width: 1280, height: 800 });
      const toGo = page.locator('app-state-panel', { hasText: 'Still to go' });
      await toGo.waitFor();
      const panel = await toGo.innerText();
      assert.match(
        panel,
        /Still to go[\s\S]*mugs[\s\S]*papers[\s\S]*broken lamp/,
        'the rest, in their order',
      );
      assert.match(panel, /Belongs here[\s\S]*laptop/, 'the laptop is sorted');
    },
  },
  {
    name: 'a thing decided in words typed at the space’s question lands, and the purpose in them answers it',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('purpose-and-thing') });
      await startConversation(
        page,
        'Tidying coach',
        'the bedroom floor is a mess: clothes, books and a lamp',
      );
      const question = await untilTheQuestion(page);
      await composer(page).fill('sleeping mostly, and the clothes go in the wardrobe');
      await composer(page).press('Enter');
      await waitForTurn(page);
      // Both were heard: the clothes are sorted, the question answered, and the coach goes on
      // with the next thing, not the clothes.
      await page.locator('ol.log', { hasText: 'Take the clothes to the wardrobe.' }).waitFor();
      await page.locator('ol.log', { hasText: 'this space is for sleeping' }).waitFor();
      await question.waitFor({ state: 'hidden' });
      await page.locator('app-elicit-card', { hasText: 'What about the books?' }).waitFor();
      assert.equal(await page.locator('app-elicit-card', { hasText: 'What about the clothes?' }).count(), 0);
      // The question in the log says what the words answered it with, as a tapped one would.
      const answered = page.locator('ol.log .question', { hasText: QUESTION });
      assert.match(await answered.innerText(), /sleeping \(from your words\)/);
      await assertNewestInView(page, 'after the purpose and the clothes');
      await t.shot(page, 'purpose-and-clothes');
      await page.setViewportSize({ width: 1280, height: 800 });
      const panel = page.locator('app-state-panel', { hasText: 'Still to go' });
      await panel.waitFor();
      assert.match(await panel.innerText(), /Belongs here[\s\S]*clothes/, 'the clothes are sorted');
      await t.shot(page, 'purpose-and-clothes-panel');
    },
  },
  {
    name: 'a part kept apart at a card (“keep the bills, bin the rest”) and a question at the prompt: both heard',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('part-apart') });
      await startConversation(
        page,
        'Tidying coach',
        'my kitchen table is covered in mail, keys and a fruit bowl',
      );
      const question = await untilTheQuestion(page);
      await question.getByRole('button', { name: 'eating', exact: true }).click();
      await waitForTurn(page);
      const mail = page.locator('app-elicit-card', { hasText: 'What about the mail?' });
      await mail.waitFor();
      await composer(page).fill('keep the bills, bin the rest');
      await composer(page).press('Enter');
      await waitForTurn(page);
      // The bills stay, what is left of the mail goes in the trash: the card is answered once.
      await page.locator('ol.log', { hasText: 'The bills stay here.' }).waitFor();
      await page.locator('ol.log', { hasText: 'The mail goes in the trash.' }).waitFor();
      await mail.waitFor({ state: 'hidden' });
      await t.shot(page, 'bills-kept-mail-binned');

      // A question at the prompt is answered from the session, then the next thing is named.
      await say(page, 'how many things are left?');
      await waitForTurn(page);
      await page.locator('ol.log', { hasText: 'Still to go: keys, fruit bowl.' }).waitFor();
      await assertNewestInView(page, 'after the question');
      await t.shot(page, 'question-answered');
      await page.setViewportSize({ width: 1280, height: 800 });
      const panel = page.locator('app-state-panel', { hasText: 'Still to go' });
      await panel.waitFor();
      const text = await panel.innerText();
      assert.match(text, /Belongs here[\s\S]*bills/, 'the bills are kept');
      assert.match(text, /Out[\s\S]*mail/, 'the rest of the mail is out');
    },
  },
];
