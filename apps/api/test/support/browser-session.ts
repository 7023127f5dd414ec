import type { AuthResponse } from '@sweatpants/domain';
import { Client } from 'pg';
import { send } from './cookie-call';
import { call, type TestApi } from './test-api';

/**
 * A browser's session against the api, by hand: the access token from the body, the refresh
 * token from its cookie, as the web client holds them.
 */

/** The password `register` gives every account. */
export const PASSWORD = 'correct horse battery';

/** Signs in as a browser does: the access token from the body, the refresh token from the cookie. */
export async function signIn(api: TestApi, email: string, password = PASSWORD) {
  const answer = await send<AuthResponse>(api, 'POST', '/api/auth/login', { body: { email, password } });
  expect(answer.status).toBe(200);
  return { token: answer.body.token, refresh: answer.refresh ?? '' };
}

export const refresh = (api: TestApi, token: string | undefined) =>
  send<AuthResponse>(api, 'POST', '/api/auth/refresh', token === undefined ? {} : { refresh: token });
export const me = async (api: TestApi, token: string) =>
  (await call(api, 'GET', '/api/auth/me', { token })).status;

export async function sql<R extends object>(url: string, text: string, params: unknown[] = []): Promise<R[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, params)).rows;
  } finally {
    await client.end();
  }
}
