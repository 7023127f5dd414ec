import assert from 'node:assert/strict';

import { assertNewestInView, chatText, composer, signUp, waitForTurn } from './support/ui.mjs';

/** Russell Square, London: the demo directory's textile bank is 200 m from here. */
const RUSSELL_SQUARE = { latitude: 51.5229, longitude: -0.1256 };
const ADDRESS = 'Textile bank, Brunswick Centre car park, Bernard Street, WC1N';
const COAT = "I'd like to give away my winter coat";
const FINAL_REPLY =
  "Take it to Textile bank, Brunswick Centre car park, Bernard Street, WC1N: 200 m away, open any time. I've copied the address for you. If that's closed, Hospice Charity Shop also takes it.";
const NOTICES = [
  'Checked the charity shops',
  'Checked the clothes and textile banks',
  'Checked the reuse centres',
];

/** Ids, JSON, tool names and the runtime's words: none of them is what a person said or was told. */
const MACHINERY = [
  /\b[0-9a-f]{12,}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-/,
  /"\w+":/,
  /\b(check_item|describe_donation|find_drop_off|copy_directions|guess_pile)\b/,
  /\[Continue as/,
  /deviceReported|acquiring/,
];

/** Picks the helper from the agents list on the home page, as a person would; answers its intro. */
async function chooseDonationHelper(page) {
  await page.goto('/');
  const helper = page
    .getByRole('group', { name: 'Choose an agent' })
    .getByRole('button', { name: /Donation helper/ });
  await helper.click();
  // The helper is the one picked (the first agent is, until another is).
  await page
    .getByRole('group', { name: 'Choose an agent' })
    .getByRole('button', { name: /Donation helper/, pressed: true })
    .waitFor();
  const intro = page.locator('.intro');
  await intro.filter({ hasText: 'Donation helper' }).waitFor();
  return (await intro.innerText()).replace(/\s+/g, ' ').trim();
}

/** Sends the first message from the home page; the conversation opens with it. */
async function sendFirst(page, text) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.waitForURL(/\/c\/[^/]+$/, { timeout: 45_000 });
  await page.locator('.bubble--user', { hasText: text }).first().waitFor();
  return new URL(page.url()).pathname.split('/')[2];
}

function assertNoMachinery(text, where) {
  for (const pattern of MACHINERY)
    assert.ok(!pattern.test(text), `${where} shows machinery (${pattern}):\n${text}`);
}

export const scenarios = [
  {
    name: 'the donation helper: a form, the location, nearby places checked, the address copied',
    async run(t) {
      const page = await t.page({
        phone: true,
        permissions: ['geolocation', 'clipboard-read', 'clipboard-write'],
        geolocation: RUSSELL_SQUARE,
      });
      await signUp(page, { email: t.email('donate') });

      // The helper is one of the agents offered; picked, it says how it opens and what to type.
      const intro = await chooseDonationHelper(page);
      assert.match(
        intro,
        /Tell me something you'd like to give away, and I'll find a place near you that takes it\./,
      );
      assert.equal(await composer(page).getAttribute('placeholder'), 'e.g. a winter coat');
      await t.shot(page, 'helper-picked');
      const id = await sendFirst(page, COAT);
      // The conversation says which agent it is with, by the name it was picked by.
      await page.locator('.head .pill', { hasText: 'Donation helper' }).waitFor();

      // A short form about the coat, drawn from its schema.
      const form = page.locator('app-elicit-card', {
        hasText: 'A little about the winter coat, so I find a place that will take it',
      });
      await form.waitFor({ timeout: 45_000 });
      await assertNewestInView(page, 'with the form asked');
      await t.shot(page, 'form');
      // Each field is named by its question, as the person reads it, not by the schema's key.
      await form.getByLabel('What condition is it in?').selectOption('good');
      await form.getByLabel('How many bags or boxes?').fill('2');
      const collection = form.getByLabel('Would you rather it were collected?');
      assert.equal(await collection.isChecked(), false, 'collection is off unless asked for');
      await form.getByRole('button', { name: 'Submit' }).click();
      await form.waitFor({ state: 'hidden' });

      // Where the person is, roughly: asked by a card, found by the device when they tap.
      const where = page.locator('app-elicit-card', { hasText: 'Share roughly where you are' });
      await where.waitFor({ timeout: 45_000 });
      assert.ok(
        await where.getByText('Approximate location').isVisible(),
        'it says only a rough place is asked',
      );
      await assertNewestInView(page, 'with the location asked');
      await t.shot(page, 'location');
      // The answers read under the form's question in its own words.
      await page
        .locator('ol.log .question__answer', {
          hasText:
            'What condition is it in? good · How many bags or boxes? 2 · Would you rather it were collected? No',
        })
        .waitFor();
      await where.getByRole('button', { name: 'Share my location' }).click();
      await where.waitFor({ state: 'hidden' });

      // Each list the directory checks shows as it goes, in order, counted out of three.
      const notices = page.locator('ol.log .progress');
      await notices.nth(2).waitFor({ timeout: 45_000 });
      assert.deepEqual(
        (await notices.allInnerTexts()).map((text) => text.trim()),
        NOTICES,
        'the three lists checked, in order',
      );
      for (const [i, message] of NOTICES.entries()) {
        const bar = page.getByRole('progressbar', { name: message });
        assert.equal(await bar.getAttribute('value'), String(i + 1), `${message}: ${i + 1} of 3`);
        assert.equal(await bar.getAttribute('max'), '3');
      }

      // The best place, offered for the clipboard; one tap copies it.
      const copy = page.locator('app-elicit-card', { hasText: 'Copy the address?' });
      await copy.waitFor({ timeout: 45_000 });
      assert.equal((await copy.locator('.to-copy').innerText()).trim(), ADDRESS);
      await assertNewestInView(page, 'with the copy offered');
      await t.shot(page, 'copy');
      await copy.getByRole('button', { name: 'Copy to clipboard' }).click();
      await copy.waitFor({ state: 'hidden' });

      // Where to take it, how far and when; the address is on the clipboard; the next item can be typed.
      const reply = page.locator('.bubble--assistant', { hasText: 'Take it to Textile bank' });
      await reply.waitFor({ timeout: 45_000 });
      await waitForTurn(page);
      assert.equal((await reply.innerText()).trim(), FINAL_REPLY);
      assert.equal(
        await page.evaluate(() => navigator.clipboard.readText()),
        ADDRESS,
        'the clipboard holds the address',
      );
      assert.ok(
        await page.locator('.bubble--user', { hasText: COAT }).isVisible(),
        'their words are still there',
      );
      await composer(page).waitFor();
      assert.equal(await composer(page).getAttribute('placeholder'), 'e.g. a winter coat');
      assert.ok(
        await composer(page).evaluate((el) => el === document.activeElement),
        'the composer has the focus again',
      );
      assert.equal(await page.locator('app-elicit-card').count(), 0, 'no question is left waiting');

      // The answers read as answers, the chat shows no machinery.
      const text = await chatText(page);
      assert.match(text, /Copied/, 'the copy reads as done');
      assertNoMachinery(text, 'the chat');
      await assertNewestInView(page, 'after the reply');
      await t.shot(page, 'final-reply');
      await page.setViewportSize({ width: 1280, height: 800 });
      await assertNewestInView(page, 'after the reply, on a wide screen');

      // The browser told the helper it was finding the device while it did (elicit:progress).
      const token = await page.evaluate(() => JSON.parse(localStorage.getItem('sweatpants.session')).token);
      const { nodes } = await t.api.path(token, id);
      // The tool's result keeps what the device reported, as text or as JSON: either way in there.
      assert.match(
        JSON.stringify(nodes),
        /deviceReported\\*":\[\\*"acquiring\\*"\]/,
        'the location widget reported that it was acquiring',
      );
    },
  },
  {
    name: 'the donation helper says a broken umbrella goes in the bin, and asks nothing',
    async run(t) {
      const auth = await t.api.register(t.email('umbrella'), 'Umbrella');
      const page = await t.signedInPage(auth);
      await chooseDonationHelper(page);
      await sendFirst(page, 'donate a broken umbrella');
      const reply = page.locator('.bubble--assistant', { hasText: 'broken umbrella' });
      await reply.waitFor({ timeout: 45_000 });
      await waitForTurn(page);
      assert.match(await reply.innerText(), /The coach would put the broken umbrella in the bin/);
      assert.equal(await page.locator('app-elicit-card').count(), 0, 'no form, no location, no copy');
      await composer(page).waitFor();
      assertNoMachinery(await chatText(page), 'the chat');
      await assertNewestInView(page, 'after the reply');
      await t.shot(page, 'bin');
    },
  },
];
