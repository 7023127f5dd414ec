import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';

import { DESKTOP, PHONE } from './support/context.mjs';
import { assertNewestInView, composer, signUp, waitForTurn } from './support/ui.mjs';

/**
 * The assistant with the deployment's MCP server (the shared api has MCP_SERVERS unset, so it is
 * server-everything over stdio): picked from the agents, it calls the tool a person names, and
 * the outside server's own question is a card in the chat, answered there; what the server got
 * back is in the reply; a page it wants opened is a card with the link. At phone and desktop width.
 */

/** Where the brief wants the pictures: /tmp/shots/assistant-<name>-<width>.png. */
const SHOTS = '/tmp/shots';

async function keep(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const original = page.viewportSize();
  for (const [label, size] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ]) {
    await page.setViewportSize(size);
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/assistant-${name}-${label}.png` });
  }
  if (original) await page.setViewportSize(original);
}

/** Picks the assistant on the home page, as a person would; returns its intro. */
async function chooseAssistant(page) {
  await page.goto('/');
  const agents = page.getByRole('group', { name: 'Choose an agent' });
  await agents.getByRole('button', { name: /Assistant/ }).click();
  await agents.getByRole('button', { name: /Assistant/, pressed: true }).waitFor();
  const intro = page.locator('.intro');
  await intro.filter({ hasText: 'Assistant' }).waitFor();
  return (await intro.innerText()).replace(/\s+/g, ' ').trim();
}

async function send(page, text) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.locator('.bubble--user', { hasText: text }).first().waitFor({ timeout: 45_000 });
}

/** The whole visit at one width: a tool named in words, then the server's question answered. */
async function visit(t, { phone, who }) {
  const page = await t.page({ phone });
  await signUp(page, { email: t.email(`assistant-${who}`) });
  const intro = await chooseAssistant(page);
  assert.match(intro, /use echo with hello/);
  assert.equal(await composer(page).getAttribute('placeholder'), 'e.g. use echo with hello');

  await send(page, 'use echo with hello');
  await page.waitForURL(/\/c\/[^/]+$/, { timeout: 45_000 });
  const echoed = page.locator('.bubble--assistant', { hasText: 'Echo: hello' });
  await echoed.waitFor({ timeout: 45_000 });
  await waitForTurn(page);

  await send(page, 'use trigger-elicitation-request');
  // The outside server's question, drawn from its own schema, in the chat.
  const card = page.locator('app-elicit-card', {
    hasText: 'Please provide inputs for the following fields:',
  });
  await card.waitFor({ timeout: 45_000 });
  // Its form is taller than a phone: the card ends on screen, at its Submit.
  assert.ok(
    await card.getByRole('button', { name: 'Submit' }).isVisible(),
    'the form can be sent from where it stops',
  );
  if (phone) {
    await keep(page, 'question');
    await t.shot(page, 'server-question');
  }
  await card.getByLabel(/^String \*$/).fill(`Ada ${who}`);
  await card.getByLabel('Boolean').check();
  await card.getByRole('button', { name: 'Submit' }).click();
  await card.waitFor({ state: 'hidden' });

  // What the server received, in its reply, and the person's answer under the question.
  const reply = page.locator('.bubble--assistant', { hasText: `Name: Ada ${who}` });
  await reply.waitFor({ timeout: 45_000 });
  await waitForTurn(page);
  assert.match(await reply.innerText(), /Agreed to terms: true/);
  await page.locator('ol.log .question__answer', { hasText: `Ada ${who}` }).waitFor();
  assert.equal(await page.locator('app-elicit-card').count(), 0, 'no question is left waiting');
  await assertNewestInView(page, 'after the reply');
  await keep(page, phone ? 'answered' : 'answered-wide');
  if (phone) await t.shot(page, 'server-answered');

  // A page the server wants opened (URL mode): a card whose link opens it; yes says it was.
  await send(page, 'use trigger-url-elicitation with https://example.com/sign-in');
  const linkCard = page.locator('app-elicit-card', {
    hasText: 'Please open the link to complete this action.',
  });
  await linkCard.waitFor({ timeout: 45_000 });
  const link = linkCard.getByRole('link', { name: 'https://example.com/sign-in' });
  assert.equal(await link.getAttribute('href'), 'https://example.com/sign-in');
  assert.equal(await link.getAttribute('target'), '_blank');
  await assertNewestInView(page, 'with the page to open asked');
  await keep(page, phone ? 'link' : 'link-wide');
  if (phone) await t.shot(page, 'server-link');
  await linkCard.getByRole('button', { name: 'Yes' }).click();
  await linkCard.waitFor({ state: 'hidden' });
  const opened = page.locator('.bubble--assistant', { hasText: 'User completed the URL elicitation flow' });
  await opened.waitFor({ timeout: 45_000 });
  await waitForTurn(page);
  assert.match(await opened.innerText(), /URL: https:\/\/example\.com\/sign-in/);

  // The tool's call and its result are on the conversation's path.
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('sweatpants.session')).token);
  const id = new URL(page.url()).pathname.split('/')[2];
  const { nodes } = await t.api.path(token, id);
  const calls = nodes.filter((n) => n.kind === 'tool_call').map((n) => n.payload.name);
  assert.deepEqual(calls, [
    'everything_echo',
    'everything_trigger-elicitation-request',
    'everything_trigger-url-elicitation',
  ]);
}

export const scenarios = [
  {
    name: 'a long MCP tool shows the steps its server reports while it runs, then its result (phone)',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('assistant-progress') });
      await chooseAssistant(page);
      await send(page, 'run the long running operation please');
      await page.waitForURL(/\/c\/[^/]+$/, { timeout: 45_000 });
      // While it runs: the server's own count, with a bar, where "Working…" would be.
      const working = page
        .getByRole('status')
        .filter({ hasText: /trigger long running operation: [1-4] of 5/ });
      await working.waitFor({ timeout: 45_000 });
      const bar = working.getByRole('progressbar');
      assert.equal(await bar.getAttribute('max'), '5');
      await t.shot(page, 'tool-progress');
      const done = page.locator('.bubble--assistant', { hasText: 'Long running operation completed' });
      await done.waitFor({ timeout: 45_000 });
      await waitForTurn(page);
      assert.equal(await page.getByRole('progressbar').count(), 0, 'no bar is left once it is done');
      await assertNewestInView(page, 'with the result');
    },
  },
  {
    name: 'the image an MCP server answers with is shown in the chat, from its tool (phone and desktop)',
    async run(t) {
      const page = await t.page({ phone: true });
      await signUp(page, { email: t.email('assistant-image') });
      await chooseAssistant(page);
      await send(page, 'please use the tiny image tool');
      await page.waitForURL(/\/c\/[^/]+$/, { timeout: 45_000 });
      const reply = page.locator('.bubble--assistant', { hasText: 'The image above is the MCP logo' });
      await reply.waitFor({ timeout: 45_000 });
      await waitForTurn(page);
      // The image itself, loaded, above the reply that speaks of it; the reply does not name it.
      const image = page.getByRole('img', { name: 'Image from “everything get tiny image”' });
      await image.waitFor();
      await page.waitForFunction(() =>
        [...document.querySelectorAll('figure img')].some((img) => img.complete && img.naturalWidth > 0),
      );
      const [shown, said] = await Promise.all([image.boundingBox(), reply.boundingBox()]);
      assert.ok(shown && said && shown.y < said.y, 'the image comes before the words about it');
      assert.doesNotMatch(await reply.innerText(), /\[image/);
      await page.locator('figcaption', { hasText: 'From “everything get tiny image”' }).waitFor();
      await assertNewestInView(page, 'with the image and its reply');
      await t.shot(page, 'tool-image');
      await page.setViewportSize(DESKTOP);
      await page.waitForTimeout(150);
      await t.shot(page, 'tool-image-wide');
    },
  },
  {
    name: 'the assistant on a phone: a tool named in words, an outside MCP server’s question answered in the chat',
    async run(t) {
      await visit(t, { phone: true, who: 'phone' });
    },
  },
  {
    name: 'the assistant on a desktop: the outside MCP server’s question answered in the chat',
    async run(t) {
      await visit(t, { phone: false, who: 'desktop' });
    },
  },
];
