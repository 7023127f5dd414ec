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
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Start a conversation' }).waitFor();
}

/** Starts a conversation from the list page; returns its id from the URL. */
export async function startConversation(page, agentLabel, title) {
  if (title) await page.getByLabel('Title (optional)').fill(title);
  await page.getByRole('button', { name: new RegExp(agentLabel) }).click();
  await page.waitForURL(/\/c\/[^/]+$/);
  return new URL(page.url()).pathname.split('/')[2];
}

/** The composer, once it accepts a message (the agent is waiting for one). */
export function composer(page) {
  return page.locator('app-chat-elicit textarea:enabled');
}

export async function say(page, text, { photo } = {}) {
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
  await page.locator('.bubble--user', { hasText: text }).first().waitFor();
}

/** Waits until the agent has answered and asks something again (a card or the composer). */
export async function waitForTurn(page, timeout = 45_000) {
  await page.locator('.working').waitFor({ state: 'hidden', timeout });
  await page.locator('app-elicit-card, app-chat-elicit textarea:enabled').first().waitFor({ timeout });
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
