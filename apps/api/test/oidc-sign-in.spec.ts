import type { AuthResponse, SignInMethods } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { Client } from 'pg';
import {
  browse,
  CLIENT_ID,
  CLIENT_SECRET,
  CookieJar,
  freePort,
  startProvider,
  type ProviderAccount,
  type TestProvider,
} from './support/oidc-provider';
import { call, client, errorOf, startApi, type TestApi } from './support/test-api';

const ADMINS_GROUP = 'sweatpants-admins';
const PASSWORD = 'correct horse battery';

/** The people the provider knows. */
const people = {
  ada: { sub: 'ada-1', email: 'ada@corp.example', email_verified: true, name: 'Ada Lovelace' },
  grace: { sub: 'grace-1', email: 'grace@corp.example', email_verified: true, name: 'Grace Hopper' },
  mallory: { sub: 'mallory-1', email: 'mallory@corp.example', email_verified: true, name: 'Mallory' },
  unproven: { sub: 'unproven-1', email: 'unproven@corp.example', email_verified: false, name: 'Una' },
  boss: {
    sub: 'boss-1',
    email: 'boss@corp.example',
    email_verified: true,
    name: 'The Boss',
    groups: ['staff', ADMINS_GROUP],
  },
  staff: {
    sub: 'staff-1',
    email: 'staff@corp.example',
    email_verified: true,
    name: 'Staff',
    groups: ['staff'],
  },
  replay: { sub: 'replay-1', email: 'replay@corp.example', email_verified: true, name: 'Replay' },
  lb: { sub: 'lb-1', email: 'lb@corp.example', email_verified: true, name: 'Two Processes' },
  leaver: { sub: 'leaver-1', email: 'leaver@corp.example', email_verified: true, name: 'Leaving' },
} satisfies Record<string, ProviderAccount>;

/** Where a browser ends up after a sign-in with the provider: the web client's sign-in page. */
interface Landing {
  url: URL;
  /** the provider's redirect back to the api, as the browser followed it */
  callback: URL;
}

describe('sign-in with an OpenID Connect provider (a real one: oidc-provider)', () => {
  let db: TestDatabase;
  let provider: TestProvider;
  let api: TestApi;
  /** a second api process on the same database, behind the same PUBLIC_URL */
  let other: TestApi;
  let publicUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_oidc');
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    provider = await startProvider(`${publicUrl}/api/auth/oidc/callback`, Object.values(people));
    const env = {
      DATABASE_URL: db.url,
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_NAME: 'Corp SSO',
      OIDC_SCOPES: 'openid email profile groups',
      OIDC_ADMIN_CLAIM: 'groups',
      OIDC_ADMIN_VALUE: ADMINS_GROUP,
    };
    api = await startApi({ ...env, PORT: String(port) });
    other = await startApi(env);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await other?.close();
    await provider?.close();
    await db?.drop();
  });

  /**
   * A person signs in as a browser would: the product's button, the provider's login page (their
   * email typed in), and back through the callback to the web client's sign-in page. `answeredBy`
   * is the api process the callback reaches (a load balancer's choice); `tamper` changes the
   * provider's redirect before the browser follows it.
   */
  async function signIn(
    person: ProviderAccount,
    options: {
      jar?: CookieJar;
      answeredBy?: TestApi;
      tamper?: (callback: URL) => URL;
      returnUrl?: string;
    } = {},
  ): Promise<Landing> {
    const jar = options.jar ?? new CookieJar();
    const start = new URL(`${publicUrl}/api/auth/oidc/login`);
    if (options.returnUrl) start.searchParams.set('returnUrl', options.returnUrl);
    let url = start;
    // Redirects followed to the provider's login page (skipped when the provider remembers the
    // person) and on to the provider's redirect back to the api.
    for (let hops = 0; !url.pathname.endsWith('/api/auth/oidc/callback'); hops++) {
      if (hops > 10) throw new Error('too many redirects');
      let response = await browse(jar, url);
      if (response.status === 200) {
        expect(await response.text()).toContain('Test identity provider');
        response = await browse(jar, new URL(`${url.pathname}/login`, url), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ email: person.email }).toString(),
        });
      }
      expect([302, 303]).toContain(response.status);
      url = new URL(response.headers.get('location') ?? '', url);
    }
    const callback = options.tamper ? options.tamper(url) : url;
    return { url: await answerCallback(jar, callback, options.answeredBy), callback };
  }

  /** The callback, answered by `by` (PUBLIC_URL's own api unless said); where it sends the browser. */
  async function answerCallback(jar: CookieJar, callback: URL, by: TestApi = api): Promise<URL> {
    const served = new URL(`${callback.pathname}${callback.search}`, by.base);
    // The browser holds the cookies of PUBLIC_URL's host, which both processes share.
    const response = await browse(jar, served);
    expect(response.status).toBe(302);
    expect(response.headers.get('content-type')).toBeNull();
    return new URL(response.headers.get('location') ?? '');
  }

  /** What the web client does on landing: trade the refresh cookie for the session's access token. */
  async function session(jar: CookieJar, on: TestApi = api): Promise<AuthResponse> {
    const res = await browse(jar, new URL(on.url('/api/auth/refresh')), { method: 'POST' });
    expect(res.status).toBe(200);
    return (await res.json()) as AuthResponse;
  }

  const landedSignedIn = (landing: Landing) =>
    expect(`${landing.url.origin}${landing.url.pathname}?${landing.url.searchParams.toString()}`).toBe(
      `${publicUrl}/sign-in?via=oidc`,
    );
  const refused = (landing: Landing, reason: string) =>
    expect(landing.url.href).toBe(`${publicUrl}/sign-in?oidcError=${reason}`);

  async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      return (await pg.query(text, values)).rows as T[];
    } finally {
      await pg.end();
    }
  }

  it('tells the sign-in page which methods exist: the password and the provided button', async () => {
    await expect(client(api).signInMethods()).resolves.toEqual({
      password: true,
      oidc: { name: 'Corp SSO' },
    });
  });

  it("makes an account at the first sign-in from the provider's verified email and name, signed in as a password sign-in is", async () => {
    const jar = new CookieJar();
    const landing = await signIn(people.ada, { jar });
    landedSignedIn(landing);
    const { token, user } = await session(jar);
    // the provider vouched for the email: the account's is proven
    expect(user).toEqual({
      id: expect.any(String),
      email: 'ada@corp.example',
      displayName: 'Ada Lovelace',
      role: 'user',
      emailVerified: true,
    });
    await expect(client(api, token).me()).resolves.toEqual(user);
    // the pending sign-in's cookie is gone with it; the session carries on with its refresh cookie
    expect(jar.has('127.0.0.1', 'sp_oidc')).toBe(false);
    expect((await session(jar)).user.id).toBe(user.id);
    // a new account starts as a registered one does: with the concierge's demo activities
    await expect(client(api, token).listConversations()).resolves.toMatchObject({ items: expect.any(Array) });

    // the next sign-in is the same account, found by the provider's subject
    const again = new CookieJar();
    landedSignedIn(await signIn(people.ada, { jar: again }));
    expect((await session(again)).user.id).toBe(user.id);
    // it has no password anyone knows
    expect(
      (
        await call(api, 'POST', '/api/auth/login', {
          body: { email: 'ada@corp.example', password: PASSWORD },
        })
      ).status,
    ).toBe(401);
  });

  it('brings the person back to where they were (a path of the web client only)', async () => {
    const jar = new CookieJar();
    const landing = await signIn(people.ada, { jar, returnUrl: '/account' });
    expect(landing.url.searchParams.get('returnUrl')).toBe('/account');
    const elsewhere = await signIn(people.ada, { returnUrl: '//evil.example/' });
    landedSignedIn(elsewhere);
  });

  it('finishes a sign-in begun on one api process on another (the pending sign-in is in Postgres)', async () => {
    const jar = new CookieJar();
    landedSignedIn(await signIn(people.lb, { jar, answeredBy: other }));
    const { token, user } = await session(jar, other);
    expect(user.email).toBe('lb@corp.example');
    await expect(client(api, token).me()).resolves.toEqual(user);
  });

  it('links an existing account whose email is verified, and never one whose email is not', async () => {
    const grace = (
      await client(api).register({
        body: { email: 'Grace@corp.example', password: PASSWORD, displayName: 'Grace' },
      })
    ).user;
    const mallory = (
      await client(api).register({
        body: { email: 'mallory@corp.example', password: PASSWORD, displayName: 'Not Mallory' },
      })
    ).user;
    // Grace proved her address (as the verification mail's link does)
    await sql(`UPDATE users SET email_verified_at = now() WHERE id = $1`, [grace.id]);

    const jar = new CookieJar();
    landedSignedIn(await signIn(people.grace, { jar }));
    const linked = await session(jar);
    expect(linked.user).toEqual({ ...grace, emailVerified: true });

    // whoever registered mallory@ never proved the address: the provider's Mallory is refused
    const refusedJar = new CookieJar();
    refused(await signIn(people.mallory, { jar: refusedJar }), 'unverified_account');
    expect(refusedJar.has('127.0.0.1', 'sp_refresh')).toBe(false);
    expect(await sql(`SELECT * FROM identity_links WHERE user_id = $1`, [mallory.id])).toEqual([]);
    // and the account is as it was: its password still signs it in
    expect(
      (await client(api).login({ body: { email: 'mallory@corp.example', password: PASSWORD } })).user.id,
    ).toBe(mallory.id);
  });

  it('makes no account from an email the provider does not vouch for', async () => {
    refused(await signIn(people.unproven), 'unverified_email');
    expect(await sql(`SELECT id FROM users WHERE email = $1`, [people.unproven.email])).toEqual([]);
  });

  it('refuses a return whose state is not the pending one, or that comes a second time', async () => {
    const jar = new CookieJar();
    const forged = await signIn(people.ada, {
      jar,
      tamper: (callback) => {
        const changed = new URL(callback);
        changed.searchParams.set('state', 'a-state-this-browser-never-had');
        return changed;
      },
    });
    refused(forged, 'expired');
    expect(jar.has('127.0.0.1', 'sp_refresh')).toBe(false);

    // the same callback again, once it has signed the person in: the pending sign-in is used up
    const first = new CookieJar();
    const landing = await signIn(people.replay, { jar: first });
    landedSignedIn(landing);
    const replayJar = new CookieJar();
    refused(
      { url: await answerCallback(replayJar, landing.callback), callback: landing.callback },
      'expired',
    );
  });

  it("refuses a replayed code, even with a fresh state of the browser's own (the provider says no)", async () => {
    const jar = new CookieJar();
    const used = await signIn(people.replay, { jar });
    landedSignedIn(used);
    // the same browser begins another sign-in and, at the provider's return, presents the old code
    const fresh = await signIn(people.replay, {
      jar,
      tamper: (callback) => {
        const changed = new URL(callback);
        changed.searchParams.set('code', used.callback.searchParams.get('code') ?? '');
        return changed;
      },
    });
    refused(fresh, 'provider');
  });

  it('refuses a return in a browser other than the one that began the sign-in (no login CSRF)', async () => {
    // someone begins a sign-in, and hands its return to another person's browser
    const attacker = new CookieJar();
    const started = await browse(attacker, new URL(`${publicUrl}/api/auth/oidc/login`));
    const state = new URL(started.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const victim = new CookieJar();
    const back = await answerCallback(
      victim,
      new URL(`${publicUrl}/api/auth/oidc/callback?code=x&state=${state}`),
    );
    expect(back.href).toBe(`${publicUrl}/sign-in?oidcError=expired`);
    expect(victim.has('127.0.0.1', 'sp_refresh')).toBe(false);
  });

  it('lands on the sign-in page with a reason when the provider itself refuses', async () => {
    const jar = new CookieJar();
    const start = await browse(jar, new URL(`${publicUrl}/api/auth/oidc/login`));
    const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
    const landing = await answerCallback(
      jar,
      new URL(
        `${publicUrl}/api/auth/oidc/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`,
      ),
    );
    expect(landing.href).toBe(`${publicUrl}/sign-in?oidcError=provider`);
  });

  it('deletes an account without a password from a recent sign-in, and asks an older session to sign in again', async () => {
    const jar = new CookieJar();
    landedSignedIn(await signIn(people.leaver, { jar }));
    const { token, user } = await session(jar);
    const how = await client(api, token).accountDeletion();
    expect(how).toEqual({ confirmWith: 'recent-sign-in', recentUntil: expect.any(String) });
    expect(Date.parse(how.recentUntil ?? '')).toBeGreaterThan(Date.now() + 9 * 60_000);

    // The same session once its sign-in is older than ten minutes: its token alone deletes nothing.
    await sql(`UPDATE refresh_tokens SET signed_in_at = now() - interval '11 minutes' WHERE user_id = $1`, [
      user.id,
    ]);
    await expect(client(api, token).accountDeletion()).resolves.toEqual({
      confirmWith: 'recent-sign-in',
      recentUntil: null,
    });
    const stale = await call(api, 'DELETE', '/api/account', { token, body: {} });
    expect(stale).toEqual({ status: 400, body: errorOf('invalid_request') });
    expect(stale.body).toMatchObject({ error: { details: [{ field: 'signIn' }] } });
    await expect(client(api, token).me()).resolves.toMatchObject({ id: user.id });

    // Signing in again with the provider confirms it.
    const again = new CookieJar();
    landedSignedIn(await signIn(people.leaver, { jar: again }));
    const fresh = await session(again);
    expect((await call(api, 'DELETE', '/api/account', { token: fresh.token, body: {} })).status).toBe(204);
    expect((await call(api, 'GET', '/api/auth/me', { token: fresh.token })).status).toBe(401);
    expect(await sql('SELECT id FROM users WHERE id = $1', [user.id])).toEqual([]);
  });

  it('makes an admin of a person whose groups claim holds OIDC_ADMIN_VALUE, and nobody else', async () => {
    const bossJar = new CookieJar();
    landedSignedIn(await signIn(people.boss, { jar: bossJar }));
    const boss = await session(bossJar);
    expect(boss.user.role).toBe('admin');
    await expect(client(api, boss.token).adminConversations({ query: { limit: 5 } })).resolves.toBeDefined();
    // the other process reads it from the link, too
    await expect(client(other, boss.token).me()).resolves.toMatchObject({ role: 'admin' });

    const staffJar = new CookieJar();
    landedSignedIn(await signIn(people.staff, { jar: staffJar }));
    const staff = await session(staffJar);
    expect(staff.user.role).toBe('user');
    expect((await call(api, 'GET', '/api/admin/conversations', { token: staff.token })).status).toBe(403);
  });
});

describe('password sign-in turned off (PASSWORD_SIGNIN=off)', () => {
  let db: TestDatabase;
  let provider: TestProvider;
  let api: TestApi;
  let publicUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_oidc_only');
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    provider = await startProvider(`${publicUrl}/api/auth/oidc/callback`, [people.ada]);
    api = await startApi({
      DATABASE_URL: db.url,
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: CLIENT_ID,
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      PASSWORD_SIGNIN: 'off',
    });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await provider?.close();
    await db?.drop();
  });

  it('offers only the provider, named after its host when OIDC_NAME is unset', async () => {
    await expect(client(api).signInMethods()).resolves.toEqual<SignInMethods>({
      password: false,
      oidc: { name: '127.0.0.1' },
    });
  });

  it('refuses registration, password sign-in and password reset with a 403 that names the way in', async () => {
    const body = { email: 'someone@example.com', password: PASSWORD, displayName: 'Someone' };
    const registered = await call(api, 'POST', '/api/auth/register', { body });
    expect(registered).toEqual({ status: 403, body: errorOf('forbidden') });
    expect(JSON.stringify(registered.body)).toContain('sign in with 127.0.0.1');
    expect(await call(api, 'POST', '/api/auth/login', { body })).toEqual({
      status: 403,
      body: errorOf('forbidden'),
    });
    // No password signs in, so none is set by mail either.
    expect(await call(api, 'POST', '/api/auth/password-reset', { body: { email: body.email } })).toEqual({
      status: 403,
      body: errorOf('forbidden'),
    });
  });

  it('still signs people in with the provider', async () => {
    const jar = new CookieJar();
    const pageResponse = await browse(jar, new URL(`${publicUrl}/api/auth/oidc/login`));
    expect(pageResponse.status).toBe(302);
    expect(pageResponse.headers.get('location')).toContain(`${provider.issuer}/auth?`);
  });
});

describe('without an identity provider', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_no_oidc');
    api = await startApi({ DATABASE_URL: db.url });
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('offers the password alone, and the provider routes send the browser back with a reason', async () => {
    await expect(client(api).signInMethods()).resolves.toEqual({ password: true, oidc: null });
    const res = await fetch(api.url('/api/auth/oidc/login'), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/\/sign-in\?oidcError=not_configured$/);
    const back = await fetch(api.url('/api/auth/oidc/callback?code=x&state=y'), { redirect: 'manual' });
    expect(back.headers.get('location')).toMatch(/\/sign-in\?oidcError=not_configured$/);
  });
});
