import type { AuthResponse } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { useApiPair } from './support/api-pair';
import { send } from './support/cookie-call';
import { me, PASSWORD, refresh, signIn, sql } from './support/browser-session';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';

/** Access tokens this short make "past the access token's lifetime" a couple of seconds away. */
const ACCESS_TTL_SECONDS = 1;

/** Waits until the api refuses `token` because it expired (a second or two with ACCESS_TTL_SECONDS). */
async function untilExpired(api: TestApi, token: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while ((await me(api, token)) === 200) {
    if (Date.now() > deadline) throw new Error('the access token did not expire');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('sessions: a refresh token carries a sign-in on, one use at a time', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_sessions');
    api = await startApi({ DATABASE_URL: db.url });
  }, 30_000);

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('sets the refresh token in an httpOnly, SameSite=Strict cookie for the auth routes only, Secure over https', async () => {
    const email = (await register(api, 'cookie')).user.email;
    const plain = await send(api, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(plain.setCookie).toMatch(
      /^sp_refresh=[A-Za-z0-9_-]{43}; Path=\/api\/auth; Max-Age=259\d{4}; HttpOnly; SameSite=Strict$/,
    );
    const proxied = await send(api, 'POST', '/api/auth/login', {
      body: { email, password: PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(proxied.setCookie).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    // Only its hash is kept: the table holds nothing that signs anyone in.
    const stored = await sql<{ hash: string }>(
      db.url,
      `SELECT encode(token_hash, 'hex') AS hash FROM refresh_tokens`,
    );
    expect(stored.length).toBeGreaterThanOrEqual(2);
    for (const { hash } of stored) expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(plain.refresh);
  });

  it('refuses a refresh token after its use, and its reuse ends that session but no other', async () => {
    const account = await register(api, 'rotating');
    const laptop = await signIn(api, account.user.email);
    const phone = await signIn(api, account.user.email);

    const first = await refresh(api, laptop.refresh);
    expect(first.status).toBe(200);
    // The used token again (copied, say): refused, and its successor ended too. The cookie is left
    // alone: a newer one may have been set meanwhile by another answer.
    const reused = await refresh(api, laptop.refresh);
    expect(reused).toMatchObject({ status: 401, body: errorOf('unauthenticated') });
    expect(reused.setCookie).toBeUndefined();
    expect((await refresh(api, first.refresh)).status).toBe(401);
    const family = await sql<{ revoked: boolean }>(
      db.url,
      `SELECT bool_and(revoked_at IS NOT NULL) AS revoked FROM refresh_tokens r
       WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = sha256($1::bytea))`,
      [Buffer.from(laptop.refresh)],
    );
    expect(family).toEqual([{ revoked: true }]);

    // The phone's own sign-in is another session, and carries on.
    expect((await refresh(api, phone.refresh)).status).toBe(200);
  });

  it('answers a missing, unknown or malformed refresh token with a 401 in the error shape', async () => {
    for (const cookie of [undefined, '', 'not-a-token', 'A'.repeat(43), '%zz;=']) {
      const answer = await refresh(api, cookie);
      expect([cookie, answer.status, answer.body]).toEqual([cookie, 401, errorOf('unauthenticated')]);
    }
  });

  it('refuses a refresh token unused for longer than the idle period', async () => {
    const account = await register(api, 'idle');
    const session = await signIn(api, account.user.email);
    await sql(
      db.url,
      `UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [account.user.id],
    );
    expect(await refresh(api, session.refresh)).toMatchObject({
      status: 401,
      body: errorOf('unauthenticated'),
    });
  });

  it('signs out here: this session’s refresh token is refused, other sessions carry on', async () => {
    const account = await register(api, 'leaving');
    const here = await signIn(api, account.user.email);
    const elsewhere = await signIn(api, account.user.email);
    const out = await send(api, 'POST', '/api/auth/sign-out', { refresh: here.refresh });
    expect(out.status).toBe(204);
    expect(out.refresh).toBe('');
    expect((await refresh(api, here.refresh)).status).toBe(401);
    expect((await refresh(api, elsewhere.refresh)).status).toBe(200);
    // With no session to end it still answers 204: signing out twice is not an error.
    expect((await send(api, 'POST', '/api/auth/sign-out')).status).toBe(204);
  });

  it('ends every session when the person signs out everywhere or changes the password', async () => {
    const account = await register(api, 'everywhere');
    const one = await signIn(api, account.user.email);
    const two = await signIn(api, account.user.email);
    const everywhere = await send(api, 'POST', '/api/auth/sign-out-everywhere', {
      token: one.token,
      refresh: one.refresh,
    });
    expect(everywhere.status).toBe(204);
    expect(everywhere.refresh).toBe('');
    expect((await refresh(api, one.refresh)).status).toBe(401);
    expect((await refresh(api, two.refresh)).status).toBe(401);

    const three = await signIn(api, account.user.email);
    const four = await signIn(api, account.user.email);
    const changed = await send<AuthResponse>(api, 'POST', '/api/account/password', {
      token: three.token,
      body: { currentPassword: PASSWORD, newPassword: 'a much better passphrase' },
    });
    expect(changed.status).toBe(200);
    expect((await refresh(api, three.refresh)).status).toBe(401);
    expect((await refresh(api, four.refresh)).status).toBe(401);
    // The browser that changed it carries on in the new session its answer started.
    expect(changed.refresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const next = await refresh(api, changed.refresh);
    expect(next.status).toBe(200);
    expect(await me(api, next.body.token)).toBe(200);
  });

  it('ends every session, and keeps none of its rows, when the account is deleted', async () => {
    const account = await register(api, 'deleted');
    const session = await signIn(api, account.user.email);
    expect(
      (await call(api, 'DELETE', '/api/account', { token: session.token, body: { password: PASSWORD } }))
        .status,
    ).toBe(204);
    expect((await refresh(api, session.refresh)).status).toBe(401);
    expect(await sql(db.url, `SELECT 1 FROM refresh_tokens WHERE user_id = $1`, [account.user.id])).toEqual(
      [],
    );
  });

  it('lets one of two requests presenting the same token through, never both', async () => {
    const account = await register(api, 'racing');
    const session = await signIn(api, account.user.email);
    const answers = await Promise.all([refresh(api, session.refresh), refresh(api, session.refresh)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
  });
});

describe('sessions with access tokens that live a second', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_sessions_short');
    api = await startApi({ DATABASE_URL: db.url, JWT_TTL_SECONDS: String(ACCESS_TTL_SECONDS) });
  }, 30_000);

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('keeps a session in use alive past the access token’s lifetime, each refresh a new token and cookie', async () => {
    const account = await register(api, 'keeps-going');
    let { token, refresh: cookie } = await signIn(api, account.user.email);
    for (let round = 0; round < 2; round++) {
      await untilExpired(api, token);
      expect(await me(api, token)).toBe(401);
      const renewed = await refresh(api, cookie);
      expect(renewed.status).toBe(200);
      expect(renewed.body).toEqual({ token: expect.any(String), user: account.user });
      expect(renewed.refresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(renewed.refresh).not.toBe(cookie);
      expect(await me(api, renewed.body.token)).toBe(200);
      token = renewed.body.token;
      cookie = renewed.refresh ?? '';
    }
  });
});

describe('sessions and the rate limit', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_sessions_limited');
    api = await startApi({ DATABASE_URL: db.url, RATE_LIMIT_HTTP_PER_MINUTE: '3' });
  }, 30_000);

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('counts refreshes per address as it counts sign-ins: a flood of guesses is a 429', async () => {
    // Twice the limit and one: however the minute's windows fall across the burst, one overflows.
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await refresh(api, `guess-${i}`));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]?.body).toEqual(errorOf('rate_limited'));
    expect(answers.filter((a) => a.status !== 429).every((a) => a.status === 401)).toBe(true);
  });
});

describe('sessions across api processes', () => {
  const pair = useApiPair('api_sessions_two');

  it('a session refreshed on one process carries on at the other; sign-out everywhere on one ends it on both', async () => {
    const account = await register(pair.a, 'two-sites');
    const login = await send<AuthResponse>(pair.a, 'POST', '/api/auth/login', {
      body: { email: account.user.email, password: PASSWORD },
    });
    const onB = await refresh(pair.b, login.refresh);
    expect(onB.status).toBe(200);
    expect(await me(pair.a, onB.body.token)).toBe(200);

    expect(
      (await send(pair.a, 'POST', '/api/auth/sign-out-everywhere', { token: onB.body.token })).status,
    ).toBe(204);
    expect(await refresh(pair.b, onB.refresh)).toMatchObject({
      status: 401,
      body: errorOf('unauthenticated'),
    });
    expect((await refresh(pair.a, onB.refresh)).status).toBe(401);
  });
});
