import assert from 'node:assert/strict';

import { assertNewestInView, chatText, composer, signUp, waitForTurn } from './support/ui.mjs';

/** Russell Square, London: the demo directory's textile bank is 200 m from here. */
const RUSSELL_SQUARE = { latitude: 51.5229, longitude: -0.1256 };
const ADDRESS = 'Textile bank, Brunswick Centre car park, Bernard Street, WC1N';
const COAT = "I'd like to give away my winter coat";
/** Where the coat can go, said before the address is offered to copy. */
const WHERE =
  "Take it to Textile bank, Brunswick Centre car park, Bernard Street, WC1N: 200 m away, open any time. If that's closed, Hospice Charity Shop also takes it.";
const FINAL_REPLY = "I've copied the address for you.";
const TWO_THINGS = 'I have a bag of kids clothes and some old books to give away';
const TWO_PLACES =
  'Take the kids clothes to Textile bank, Brunswick Centre car park, Bernard Street, WC1N: 200 m away, open any time. ' +
  'Take the old books to Hospice Charity Shop, 12 Marchmont Street, WC1N: 200 m away, open Mon–Sat 10:00–17:30.';
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
      // one coat: no bags or boxes to count
      assert.equal(await form.getByLabel('How many bags or boxes?').count(), 0, 'bags asked of one coat');
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
          hasText: 'What condition is it in? good · Would you rather it were collected? No',
        })
        .waitFor();
      await where.getByRole('button', { name: 'Share my location' }).click();
      await where.waitFor({ state: 'hidden' });

      // The lists the directory checks show as one bar that moves on as it goes, counted out of
      // three: once done, it reads the last of them, full.
      const notices = page.locator('ol.log .progress');
      const done = page.locator('ol.log').getByRole('progressbar', { name: NOTICES.at(-1) });
      await done.waitFor({ timeout: 45_000 });
      assert.deepEqual(
        (await notices.allInnerTexts()).map((text) => text.trim()),
        [NOTICES.at(-1)],
        'one bar for the lists checked, not one a list',
      );
      assert.equal(await done.getAttribute('value'), '3', 'all three lists checked');
      assert.equal(await done.getAttribute('max'), '3');

      // The best place, said in words first (name, address, how far, when open), then offered
      // for the clipboard; one tap copies it.
      const copy = page.locator('app-elicit-card', { hasText: 'Copy the address?' });
      await copy.waitFor({ timeout: 45_000 });
      const said = page.locator('.bubble--assistant', { hasText: 'Take it to Textile bank' });
      assert.equal((await said.innerText()).trim(), WHERE, 'where it is, said before the copy is offered');
      assert.equal((await copy.locator('.to-copy').innerText()).trim(), ADDRESS);
      await assertNewestInView(page, 'with the copy offered');
      await t.shot(page, 'copy');
      await copy.getByRole('button', { name: 'Copy to clipboard' }).click();
      await copy.waitFor({ state: 'hidden' });

      // The address is on the clipboard, and it says so; the next item can be typed.
      const reply = page.locator('.bubble--assistant', { hasText: FINAL_REPLY });
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
      // The focus follows as the composer is enabled, in the same render.
      await page
        .waitForFunction(() => document.activeElement?.matches('app-chat-elicit textarea') === true, null, {
          timeout: 2_000,
        })
        .catch(() => assert.fail('the composer has the focus again'));
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
    name: 'the donation helper takes a sentence as the things in it, and asks about each by its name',
    async run(t) {
      const page = await t.page({
        phone: true,
        permissions: ['geolocation', 'clipboard-read', 'clipboard-write'],
        geolocation: RUSSELL_SQUARE,
      });
      await signUp(page, { email: t.email('two-things') });
      await chooseDonationHelper(page);
      await sendFirst(page, TWO_THINGS);

      // Old is not broken: the coach's rule of thumb gives old books away, so nothing is asked
      // first. A short form for each thing, by its name, with its condition; not how many bags
      // of clothes ("a bag of kids clothes" said it).
      for (const [thing, asksCondition, asksBags] of [
        ['kids clothes', true, false],
        ['old books', true, true],
      ]) {
        const form = page.locator('app-elicit-card', { hasText: `A little about the ${thing},` });
        await form.waitFor({ timeout: 45_000 });
        await assertNewestInView(page, `with the ${thing}' form asked`);
        await t.shot(page, `form-${thing.replace(/\s+/g, '-')}`);
        const conditionField = form.getByLabel('What condition are they in?');
        assert.equal(await conditionField.count(), asksCondition ? 1 : 0, `${thing}: condition asked`);
        if (asksCondition) await conditionField.selectOption('good');
        const bagsField = form.getByLabel('How many bags or boxes?');
        assert.equal(await bagsField.count(), asksBags ? 1 : 0, `${thing}: bags asked`);
        if (asksBags) await bagsField.fill('1');
        await form.getByRole('button', { name: 'Submit' }).click();
        await form.waitFor({ state: 'hidden' });
      }

      // Where they are, once for both things, named in the question.
      const where = page.locator('app-elicit-card', {
        hasText:
          'Share roughly where you are, to find places near you that take the kids clothes and the old books?',
      });
      await where.waitFor({ timeout: 45_000 });
      await where.getByRole('button', { name: 'Share my location' }).click();
      await where.waitFor({ state: 'hidden' });

      // Where each goes, said by name before the addresses are offered to copy.
      const copy = page.locator('app-elicit-card', { hasText: 'Copy the addresses?' });
      await copy.waitFor({ timeout: 45_000 });
      const said = page.locator('.bubble--assistant', { hasText: 'Take the kids clothes to' });
      assert.equal((await said.innerText()).trim(), TWO_PLACES);
      await assertNewestInView(page, 'with the places said and the copy offered');
      await t.shot(page, 'two-places');
      await copy.getByRole('button', { name: 'Copy to clipboard' }).click();
      await copy.waitFor({ state: 'hidden' });
      await page.locator('.bubble--assistant', { hasText: "I've copied the addresses for you." }).waitFor();
      await waitForTurn(page);

      const text = await chatText(page);
      assert.doesNotMatch(text, /coach/i, 'it speaks in its own voice');
      assert.doesNotMatch(text, /Are the old books in good condition\?/, 'the form asks it, once');
      assert.doesNotMatch(text.replace(TWO_THINGS, ''), /I have a bag/, 'the sentence is never an item');
      assertNoMachinery(text, 'the chat');
      await assertNewestInView(page, 'after the reply');
      await t.shot(page, 'two-things-copied');
    },
  },
  {
    name: 'the donation helper takes the town typed at its location question, and asks which when several share the name (desktop)',
    async run(t) {
      // No location shared by the device: the person types where they are instead.
      const page = await t.page({ phone: false });
      await signUp(page, { email: t.email('donate-town') });
      await chooseDonationHelper(page);
      await sendFirst(page, COAT);
      const form = page.locator('app-elicit-card', { hasText: 'A little about the winter coat' });
      await form.waitFor({ timeout: 45_000 });
      await form.getByLabel('What condition is it in?').selectOption('good');
      await form.getByRole('button', { name: 'Submit' }).click();
      await form.waitFor({ state: 'hidden' });
      const where = page.locator('app-elicit-card', { hasText: 'Share roughly where you are' });
      await where.waitFor({ timeout: 45_000 });

      // A name two towns of a size share, as a phone types it: asked which, the question stays.
      await composer(page).fill('reading');
      await composer(page).press('Enter');
      await page
        .locator('ol.log', {
          hasText:
            'I know more than one Reading (in the United Kingdom and the United States): say which with its country or a city near it',
        })
        .waitFor({ timeout: 45_000 });
      await waitForTurn(page);
      await where.waitFor();
      await t.shot(page, 'which-reading');

      // A town the demo directory is near: its places, as if the device had shared it.
      await composer(page).fill("I'm in Camden Town");
      await composer(page).press('Enter');
      await page
        .locator('.bubble--assistant', {
          hasText: 'Take it to Camden Reuse Centre, 140 York Way, N1: 1.5 km away',
        })
        .waitFor({ timeout: 45_000 });
      await page
        .locator('ol.log .question__answer', { hasText: 'Location (51.541, -0.143)' })
        .first()
        .waitFor();
      assert.ok(!(await chatText(page)).includes('Location shared'), 'the device shared nothing');
      await page.locator('ol.log .bubble--user', { hasText: "I'm in Camden Town" }).waitFor();
      await assertNewestInView(page, 'with the places near the town named');
      assertNoMachinery(await chatText(page), 'the chat');
      await t.shot(page, 'town-typed');
    },
  },
  {
    name: 'the donation helper says a broken umbrella goes in the bin, in its own voice, and asks nothing',
    async run(t) {
      const auth = await t.api.register(t.email('umbrella'), 'Umbrella');
      const page = await t.signedInPage(auth);
      await chooseDonationHelper(page);
      await sendFirst(page, 'donate a broken umbrella');
      const reply = page.locator('.bubble--assistant', { hasText: 'broken umbrella' });
      await reply.waitFor({ timeout: 45_000 });
      await waitForTurn(page);
      // said in the helper's own voice: it never speaks for the tidying coach it consults
      assert.match(
        await reply.innerText(),
        /The broken umbrella isn't something a charity shop could pass on/,
      );
      assert.doesNotMatch(await chatText(page), /coach/i);
      assert.equal(await page.locator('app-elicit-card').count(), 0, 'no form, no location, no copy');
      await composer(page).waitFor();
      assertNoMachinery(await chatText(page), 'the chat');
      await assertNewestInView(page, 'after the reply');
      await t.shot(page, 'bin');
    },
  },
  {
    name: 'the forms filled in with words typed on a phone: the walk goes on, collection for the one thing',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('typed-forms') });
      await chooseDonationHelper(page);
      await sendFirst(page, 'I have a box of kids clothes, mostly size 4-6, and a high chair');

      // Each thing's form, answered in the person's own words instead of its fields.
      for (const [thing, words] of [
        ['kids clothes', "they're in good condition, just one box"],
        ['high chair', "like new, and I'd like it picked up"],
      ]) {
        const form = page.locator('app-elicit-card', { hasText: `A little about the ${thing},` });
        await form.waitFor({ timeout: 45_000 });
        await t.shot(page, `form-${thing.replace(' ', '-')}`);
        await composer(page).fill(words);
        await composer(page).press('Enter');
        await form.waitFor({ state: 'hidden', timeout: 45_000 });
        assert.ok((await chatText(page)).includes(words), `their words at the ${thing}' form are kept`);
      }

      // Read as the forms would have been submitted: collection for the high chair only.
      const where = page.locator('app-elicit-card', {
        hasText:
          'Share roughly where you are, to find services near you that collect the high chair, and places that take the kids clothes?',
      });
      await where.waitFor({ timeout: 45_000 });
      await assertNewestInView(page, 'with the location asked after the typed forms');
      const text = await chatText(page);
      assert.doesNotMatch(text, /can't fill the form/, 'no form is refused');
      assert.doesNotMatch(
        text,
        /about the (?:mostly size|they're|just one box)/i,
        'a description is never a thing',
      );
      assert.equal(
        await page.locator('app-elicit-card', { hasText: 'A little about' }).count(),
        0,
        'no form asked again',
      );
      assertNoMachinery(text, 'the chat');
      // Each form says what the words were read as, above the words themselves.
      const clothes = page.locator('ol.log .question', { hasText: 'A little about the kids clothes' });
      assert.match(
        await clothes.innerText(),
        /What condition are they in\? good · Would you rather they were collected\? No\s*\(from your words\)/,
      );
      await t.shot(page, 'typed-forms-location');
      await clothes.scrollIntoViewIfNeeded();
      await t.shot(page, 'typed-forms-read-as');
    },
  },
  {
    name: 'words that fill in part of a form: it comes back with them filled in, and only the rest to give',
    async run(t) {
      const page = await t.page({ phone: false });
      await signUp(page, { email: t.email('part-form') });
      await chooseDonationHelper(page);
      await sendFirst(page, 'some jumpers');
      const form = page.locator('app-elicit-card', { hasText: 'A little about the jumpers' });
      await form.waitFor({ timeout: 45_000 });

      await composer(page).fill("they're in good condition");
      await composer(page).press('Enter');
      await page
        .locator('.bubble--assistant', {
          hasText: 'From your words I could not tell: How many bags or boxes?',
        })
        .waitFor({ timeout: 45_000 });
      // The form asked again starts from what the words gave: the condition is chosen already.
      const again = page.locator('app-elicit-card', { hasText: 'A little about the jumpers' });
      await again.getByLabel('What condition are they in?').waitFor();
      assert.equal(await again.getByLabel('What condition are they in?').inputValue(), 'good');
      assert.equal(await again.getByLabel('How many bags or boxes?').inputValue(), '');
      await assertNewestInView(page, 'with the form asked again');
      await t.shot(page, 'part-form-again');

      await again.getByLabel('How many bags or boxes?').fill('1');
      await again.getByRole('button', { name: 'Submit' }).click();
      await page
        .locator('app-elicit-card', { hasText: 'Share roughly where you are' })
        .waitFor({ timeout: 45_000 });
      const text = await chatText(page);
      assert.ok(text.includes("they're in good condition"), 'their words are kept');
      assert.ok(
        text.includes('What condition are they in? good'),
        'the answer shows the condition they said',
      );
      assertNoMachinery(text, 'the chat');
      await t.shot(page, 'part-form-answered');
    },
  },
  {
    name: 'words typed at the location card: "rather not" keeps it, a place it cannot look up gets what the card takes',
    async run(t) {
      /** Walks a new session to the location card: the coat's form filled in. */
      async function atTheLocationCard(page, who) {
        await signUp(page, { email: t.email(who) });
        await chooseDonationHelper(page);
        await sendFirst(page, 'a winter coat');
        const form = page.locator('app-elicit-card', { hasText: 'A little about the winter coat' });
        await form.waitFor({ timeout: 45_000 });
        await form.getByLabel('What condition is it in?').selectOption('good');
        await form.getByRole('button', { name: 'Submit' }).click();
        const where = page.locator('app-elicit-card', { hasText: 'Share roughly where you are' });
        await where.waitFor({ timeout: 45_000 });
        return where;
      }

      // On a phone, the person would rather not say where they are: nothing is looked up.
      const phone = await t.page({ phone: true });
      await atTheLocationCard(phone, 'rather-not');
      await composer(phone).fill("I'd rather not share it");
      await composer(phone).press('Enter');
      await phone
        .locator('.bubble--assistant', { hasText: "Without a rough location I can't look nearby" })
        .waitFor();
      await waitForTurn(phone);
      assert.equal(await phone.locator('app-elicit-card').count(), 0, 'the location is not asked again');
      assert.ok((await chatText(phone)).includes("I'd rather not share it"), 'their words are kept');
      await assertNewestInView(phone, 'after the location was kept');
      await t.shot(phone, 'location-kept');

      // On a desktop, the person types a place too small to know by name: told what the question
      // takes, the card comes back, and a tap finds the places.
      const desk = await t.page({
        phone: false,
        permissions: ['geolocation', 'clipboard-read', 'clipboard-write'],
        geolocation: RUSSELL_SQUARE,
      });
      await atTheLocationCard(desk, 'typed-place');
      await composer(desk).fill("I'm near Russell Square");
      await composer(desk).press('Enter');
      await desk
        .locator('.bubble--assistant', {
          hasText: 'Type the town you are in (“Leeds”), tap “Share my location”, or “Skip this”',
        })
        .waitFor({ timeout: 45_000 });
      const again = desk.locator('app-elicit-card', { hasText: 'Share roughly where you are' });
      await again.waitFor({ timeout: 45_000 });
      await assertNewestInView(desk, 'with the location asked again');
      await t.shot(desk, 'location-asked-again');
      await again.getByRole('button', { name: 'Share my location' }).click();
      await desk.locator('app-elicit-card', { hasText: 'Copy the address?' }).waitFor({ timeout: 45_000 });
      assert.ok((await chatText(desk)).includes(WHERE), 'the places are found from the shared location');
      assertNoMachinery(await chatText(desk), 'the chat');
    },
  },
];
