import type { AccountSession, AccountSessionList, AuthResponse } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { useApiPair } from './support/api-pair';
import { send } from './support/cookie-call';
import { call, client, errorOf, register, registerAdmin, startApi, type TestApi } from './support/test-api';
import { connect } from './support/test-socket';

const PASSWORD = 'correct horse battery';
const ADMIN = 'sessions-admin@example.com';
const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** A sign-in from a browser that says who it is: its access token and its refresh cookie. */
async function signInFrom(api: TestApi, email: string, userAgent: string) {
  const answer = await send<AuthResponse>(api, 'POST', '/api/auth/login', {
    body: { email, password: PASSWORD },
    headers: { 'user-agent': userAgent },
  });
  expect(answer.status).toBe(200);
  return { token: answer.body.token, refresh: answer.refresh ?? '' };
}

const sessionsOf = async (api: TestApi, token: string): Promise<AccountSession[]> =>
  (await call<AccountSessionList>(api, 'GET', '/api/auth/sessions', { token })).body.items;
const me = async (api: TestApi, token: string) => (await call(api, 'GET', '/api/auth/me', { token })).status;

describe('the sessions a person can see: each signed-in device, signed out from the account page', () => {
  let db: TestDatabase;
  let api: TestApi;
  let admin: AuthResponse;

  beforeAll(async () => {
    db = await createTestDatabase('api_account_sessions');
    api = await startApi({ DATABASE_URL: db.url, ADMIN_EMAILS: ADMIN });
    admin = await registerAdmin(api, db.url, ADMIN);
  }, 30_000);

  afterAll(async () => {
    await api.close();
    await db.drop();
  });

  it('lists each device in plain words, how and when it signed in, and marks this one', async () => {
    const person = await register(api, 'ada');
    const laptop = await signInFrom(api, person.user.email, CHROME_ON_LINUX);
    const phone = await signInFrom(api, person.user.email, SAFARI_ON_IPHONE);

    const seenFromLaptop = await sessionsOf(api, laptop.token);
    // Registering signed in a third device (the test's own client): all three are live.
    expect(seenFromLaptop).toHaveLength(3);
    expect(seenFromLaptop.slice(0, 2)).toEqual([
      expect.objectContaining({ device: 'Safari on iPhone', signedInWith: 'password', current: false }),
      expect.objectContaining({ device: 'Chrome on Linux', signedInWith: 'password', current: true }),
    ]);
    for (const session of seenFromLaptop) {
      expect(Date.parse(session.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(session.signedInAt));
    }
    const fromPhone = await sessionsOf(api, phone.token);
    expect(fromPhone.filter((s) => s.current).map((s) => s.device)).toEqual(['Safari on iPhone']);

    // A refresh carries the session on: still one entry, last used later, signed in as before.
    const before = seenFromLaptop.find((s) => s.device === 'Chrome on Linux');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const renewed = await send<AuthResponse>(api, 'POST', '/api/auth/refresh', { refresh: laptop.refresh });
    const after = (await sessionsOf(api, renewed.body.token)).find((s) => s.current);
    expect(after).toEqual({ ...before, lastUsedAt: expect.any(String) });
    expect(Date.parse(after?.lastUsedAt ?? '')).toBeGreaterThan(Date.parse(before?.lastUsedAt ?? ''));
  });

  it('signs another device out at once: its access token, its refresh cookie and its socket', async () => {
    const person = await register(api, 'bo');
    const laptop = await signInFrom(api, person.user.email, CHROME_ON_LINUX);
    const phone = await signInFrom(api, person.user.email, FIREFOX_ON_WINDOWS);
    const socket = await connect(api, phone.token);
    const closed = new Promise<string>((resolve) => socket.on('disconnect', (reason) => resolve(reason)));

    const target = (await sessionsOf(api, laptop.token)).find((s) => s.device === 'Firefox on Windows');
    expect(target).toBeDefined();
    const revoked = await call(api, 'DELETE', `/api/auth/sessions/${target?.id}`, { token: laptop.token });
    expect(revoked.status).toBe(204);

    expect(await me(api, phone.token)).toBe(401);
    expect((await send(api, 'POST', '/api/auth/refresh', { refresh: phone.refresh })).status).toBe(401);
    expect(await closed).toBe('io server disconnect');
    // This device carries on, and no longer sees the other.
    expect(await me(api, laptop.token)).toBe(200);
    expect((await sessionsOf(api, laptop.token)).map((s) => s.device)).not.toContain('Firefox on Windows');
    // Ended already: a 404, as is another person's session.
    const again = await call(api, 'DELETE', `/api/auth/sessions/${target?.id}`, { token: laptop.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(errorOf('not_found'));
    const stranger = await register(api, 'cy');
    const mine = (await sessionsOf(api, laptop.token)).find((s) => s.current);
    expect(
      (await call(api, 'DELETE', `/api/auth/sessions/${mine?.id}`, { token: stranger.token })).status,
    ).toBe(404);
    expect(await me(api, laptop.token)).toBe(200);
    expect(
      (await call(api, 'DELETE', '/api/auth/sessions/not-a-session', { token: laptop.token })).status,
    ).toBe(404);
  });

  it('signing out here ends this access token too, not only the refresh cookie', async () => {
    const person = await register(api, 'di');
    const here = await signInFrom(api, person.user.email, CHROME_ON_LINUX);
    expect((await send(api, 'POST', '/api/auth/sign-out', { refresh: here.refresh })).status).toBe(204);
    expect(await me(api, here.token)).toBe(401);
    expect(await me(api, person.token)).toBe(200);
  });

  it("puts password sign-ins and revoked sessions in the admins' audit", async () => {
    const person = await register(api, 'ed');
    const laptop = await signInFrom(api, person.user.email, CHROME_ON_LINUX);
    const phone = await signInFrom(api, person.user.email, SAFARI_ON_IPHONE);
    const target = (await sessionsOf(api, laptop.token)).find((s) => s.device === 'Safari on iPhone');
    await call(api, 'DELETE', `/api/auth/sessions/${target?.id}`, { token: laptop.token });
    expect(await me(api, phone.token)).toBe(401);

    const audit = await client(api, admin.token).adminAccountEvents({ query: { userId: person.user.id } });
    expect(audit.items.map(({ kind, detail }) => ({ kind, detail }))).toEqual([
      { kind: 'session-revoked', detail: 'Safari on iPhone' },
      { kind: 'signed-in', detail: 'with a password on Safari on iPhone' },
      { kind: 'signed-in', detail: 'with a password on Chrome on Linux' },
    ]);

    // Pages of the whole audit, newest first, meet without a gap or a repeat.
    const first = await client(api, admin.token).adminAccountEvents({ query: { limit: 2 } });
    expect(first.items).toHaveLength(2);
    const rest = await client(api, admin.token).adminAccountEvents({
      query: { limit: 200, before: first.next ?? '' },
    });
    const all = await client(api, admin.token).adminAccountEvents({ query: { limit: 200 } });
    expect([...first.items, ...rest.items]).toEqual(all.items);
  });
});

describe('sessions across api processes', () => {
  const pair = useApiPair('api_account_sessions_two');

  it('a device signed out on one process is refused by the other by the answer', async () => {
    const person = await register(pair.a, 'fa');
    const laptop = await signInFrom(pair.a, person.user.email, CHROME_ON_LINUX);
    const phone = await signInFrom(pair.b, person.user.email, SAFARI_ON_IPHONE);
    // The other process has checked the phone's token, and keeps what it learnt for a few seconds.
    expect(await me(pair.b, phone.token)).toBe(200);

    const target = (await sessionsOf(pair.a, laptop.token)).find((s) => s.device === 'Safari on iPhone');
    expect(
      (await call(pair.a, 'DELETE', `/api/auth/sessions/${target?.id}`, { token: laptop.token })).status,
    ).toBe(204);
    expect(await me(pair.b, phone.token)).toBe(401);
    expect(await me(pair.b, laptop.token)).toBe(200);
  });
});
