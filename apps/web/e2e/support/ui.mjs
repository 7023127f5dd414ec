// Steps a person takes in the client, shared by the scenarios.
import assert from 'node:assert/strict';

/** A tiny valid PNG (1×1), as a phone camera would hand over a photo. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

export async function signUp(page, { email, name = 'E2E person', password = 'correct horse battery' }) {
  await page.goto('/sign-up');
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
}

export async function signIn(page, { email, password = 'correct horse battery' }) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
}

/**
 * Starts a conversation from the home page: choose the agent, write the first message (a photo
 * beside it if given), send. The conversation exists from that message on; returns its id.
 */
export async function startConversation(page, agentLabel, text, { photo } = {}) {
  await page.goto('/');
  await page
    .getByRole('group', { name: 'Choose an agent' })
    .getByRole('button', { name: new RegExp(agentLabel) })
    .click();
  await compose(page, text, { photo });
  await page.waitForURL(/\/c\/[^/]+$/, { timeout: 45_000 });
  await page.locator('.bubble--user', { hasText: text }).first().waitFor();
  return new URL(page.url()).pathname.split('/')[2];
}

/** The composer, once it accepts a message (the agent is waiting for one). */
export function composer(page) {
  return page.locator('app-chat-elicit textarea:enabled');
}

export async function say(page, text, { photo } = {}) {
  await compose(page, text, { photo });
  await page.locator('.bubble--user', { hasText: text }).first().waitFor();
}

async function compose(page, text, { photo } = {}) {
  await composer(page).waitFor({ timeout: 45_000 });
  if (photo) {
    await page.locator('app-chat-elicit input[type=file]').setInputFiles({
      name: 'desk.png',
      mimeType: 'image/png',
      buffer: photo,
    });
    await page.locator('app-chat-elicit .thumbs img').waitFor();
  }
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/**
 * The list of conversations: the sidebar on a wide screen; on a phone, the drawer the menu button
 * opens (opened here when it is not).
 */
export async function conversationList(page) {
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  const menu = page.getByRole('button', { name: 'Conversations', exact: true });
  if (!(await nav.isVisible()) && (await menu.isVisible())) {
    await menu.click();
    await page.getByRole('dialog', { name: 'Conversations' }).waitFor();
  }
  await nav.locator('a.conversation').first().waitFor();
  return nav;
}

/** The titles in the list, top first. */
export async function listedTitles(page) {
  return (await conversationList(page)).locator('a.conversation .conversation__title').allInnerTexts();
}

/**
 * Waits until the agent has answered and asks something again (a card or the composer). Right
 * after a tap, call `tapAndWait` instead: before the tap's acknowledgement nothing on the page has
 * changed yet, so this could return before the turn it means.
 */
export async function waitForTurn(page, timeout = 45_000) {
  await page.locator('.working').waitFor({ state: 'hidden', timeout });
  // Nothing on its way: an answer just tapped is acknowledged, and the agent is not at work.
  await page.locator('.dock:not([aria-busy="true"])').waitFor({ timeout });
  await page.locator('app-elicit-card, app-chat-elicit textarea:enabled').first().waitFor({ timeout });
}

/**
 * The newest message is on screen after a turn: its last line above the dock (the card and the
 * composer), not under it, and not scrolled off the top. Asked until the scrolling settles.
 */
export async function assertNewestInView(page, when = '') {
  const viewport = page.viewportSize();
  let seen = null;
  for (let attempt = 0; attempt < 20; attempt++) {
    const last = await page.locator('ol.log > li').last().boundingBox();
    const dock = await page.locator('.dock').boundingBox();
    seen = { last, dock, viewport };
    const bottom = last ? last.y + last.height : -1;
    const limit = Math.min(dock ? dock.y : viewport.height, viewport.height);
    if (last && bottom > 0 && bottom <= limit + 1) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`the newest message is not in view${when ? ` ${when}` : ''}: ${JSON.stringify(seen)}`);
}

export async function chatText(page) {
  return (await page.locator('ol.log').innerText()).replace(/\s+/g, ' ');
}

export async function assertVisibleText(page, text, message) {
  await page
    .getByText(text, { exact: false })
    .first()
    .waitFor({ timeout: 20_000 })
    .catch(() => {
      assert.fail(message ?? `"${text}" is not on the page`);
    });
}

/**
 * Taps `choice` on the waiting card and waits for the turn it starts: the card's answer is shown
 * (one more answered card than before) and the agent asks again.
 */
export async function tapAndWait(page, choice, timeout = 45_000) {
  const answered = await page.locator('.question__answer').count();
  await choice.click();
  await page.waitForFunction(
    (before) => document.querySelectorAll('.question__answer').length > before,
    answered,
    { timeout },
  );
  await waitForTurn(page, timeout);
}
