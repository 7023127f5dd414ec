import type { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { createHttpClient, type AuthResponse, type HttpClient } from '@sweatpants/domain';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/app-config';

export const JWT_SECRET = 'a-test-secret-that-is-long-enough-for-hs256';

/** The real app on an ephemeral port, configured from `env` as main.ts would be. */
export interface TestApi {
  app: INestApplication;
  base: string;
  url(path: string): string;
  close(): Promise<void>;
}

/** Where an api answers: one started here, or one running as a process of its own. */
export type ApiAddress = Pick<TestApi, 'base' | 'url'>;

export async function startApi(env: Record<string, string>): Promise<TestApi> {
  const config = loadConfig({ PORT: '0', JWT_SECRET, WEB_DIST: '/nonexistent', ...env });
  const app = await createApp(config, { logger: false });
  // An ephemeral port unless `env` names one (an api whose PUBLIC_URL must be known beforehand).
  await app.listen(config.port, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, base, url: (path) => `${base}${path}`, close: () => app.close() };
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

/**
 * One JSON request as is, the body parsed when there is one: for what the typed client will not
 * send (malformed input, a route's edges) and for asserting on statuses and error bodies.
 */
export async function call<T = unknown>(
  api: ApiAddress,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; rawBody?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(api.url(path), { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/**
 * libs/domain's typed client against `api`, signed in with `token`. It checks every answer against
 * the HTTP contract (status and schema), so each flow a spec runs through it also holds the api to
 * what it declares.
 */
export function client(api: Pick<TestApi, 'base'>, token?: string): HttpClient {
  return createHttpClient({ baseUrl: api.base, ...(token ? { token } : {}), validate: true });
}

let counter = 0;

/** A fresh account; its email is unique per call. */
export async function register(api: ApiAddress, name = 'user'): Promise<AuthResponse> {
  counter += 1;
  const email = `${name}-${counter}-${Date.now()}@example.com`;
  return client(api).register({ body: { email, password: 'correct horse battery', displayName: name } });
}

/**
 * An admin: an account whose address ADMIN_EMAILS names, registered and proven. The proof is
 * written to the database as opening the mailed link would write it (email-verification.spec
 * opens real links); the answer is a sign-in after it, whose token says the address is proven.
 */
export async function registerAdmin(
  api: ApiAddress,
  databaseUrl: string,
  email: string,
  displayName = 'Admin',
): Promise<AuthResponse> {
  const password = 'correct horse battery';
  await client(api).register({ body: { email, password, displayName } });
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(`UPDATE users SET email_verified_at = now() WHERE lower(email) = lower($1)`, [email]);
  } finally {
    await db.end();
  }
  return client(api).login({ body: { email, password } });
}

/** PROTOCOL.md's error shape with this code (and whatever details). */
export const errorOf = (code: string) => ({
  error: expect.objectContaining({ code, message: expect.any(String) }),
});
