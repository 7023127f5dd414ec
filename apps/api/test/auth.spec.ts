import type { AuthResponse, User } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { SignJWT } from '../src/auth/jose';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../src/auth/token-signer';
import {
  call,
  errorOf,
  JWT_SECRET,
  register,
  registerAdmin,
  startApi,
  type TestApi,
} from './support/test-api';

const ADMIN = 'Boss@Example.com';
const key = new TextEncoder().encode(JWT_SECRET);

/** A token signed as the api signs them, with one thing changed. */
function forge(
  claims: { sub: string; iss?: string; aud?: string; exp?: number; alg?: string },
  secret = key,
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ email: 'x@example.com', name: 'x' })
    .setProtectedHeader({ alg: claims.alg ?? 'HS256' })
    .setSubject(claims.sub)
    .setIssuer(claims.iss ?? TOKEN_ISSUER)
    .setAudience(claims.aud ?? TOKEN_AUDIENCE)
    .setIssuedAt(now - 120)
    .setExpirationTime(claims.exp ?? now + 600)
    .sign(secret);
}

describe('auth (PROTOCOL.md, Auth)', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_auth');
    api = await startApi({ DATABASE_URL: db.url, ADMIN_EMAILS: ADMIN.toLowerCase() });
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('registers an account: 201 with a token and the user, who is then `me`', async () => {
    const res = await call<AuthResponse>(api, 'POST', '/api/auth/register', {
      body: { email: 'ada@example.com', password: 'correct horse battery', displayName: 'Ada' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      token: expect.any(String),
      user: {
        id: expect.any(String),
        email: 'ada@example.com',
        displayName: 'Ada',
        role: 'user',
        emailVerified: false,
      },
    });
    const me = await call<User>(api, 'GET', '/api/auth/me', { token: res.body.token });
    expect(me).toEqual({ status: 200, body: res.body.user });
  });

  it('refuses a second account for the same email in any case with a 409', async () => {
    const body = { email: 'grace@example.com', password: 'correct horse battery', displayName: 'Grace' };
    expect((await call(api, 'POST', '/api/auth/register', { body })).status).toBe(201);
    const again = await call(api, 'POST', '/api/auth/register', {
      body: { ...body, email: 'GRACE@example.com' },
    });
    expect(again).toEqual({ status: 409, body: errorOf('conflict') });
  });

  it('names each bad or missing field of a registration in a 400', async () => {
    const res = await call<{ error: { details: { field: string }[] } }>(api, 'POST', '/api/auth/register', {
      body: { email: 'not-an-email', password: 'short' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errorOf('invalid_request'));
    expect(res.body.error.details.map((d) => d.field).sort()).toEqual(['displayName', 'email', 'password']);
  });

  it('answers a request without a body, or with malformed JSON, with a 400', async () => {
    expect(await call(api, 'POST', '/api/auth/login')).toEqual({
      status: 400,
      body: errorOf('invalid_request'),
    });
    expect(await call(api, 'POST', '/api/auth/login', { rawBody: '{"email": ' })).toEqual({
      status: 400,
      body: errorOf('invalid_request'),
    });
  });

  it('answers an oversized body with a 413', async () => {
    const res = await call(api, 'POST', '/api/auth/login', {
      body: { email: 'a@b.co', password: 'x'.repeat(26 * 1024 * 1024) },
    });
    expect(res).toEqual({ status: 413, body: errorOf('too_large') });
  });

  it('logs in with the password, whatever the case of the email; anything else is a 401', async () => {
    const { user } = await register(api, 'login');
    const ok = await call<AuthResponse>(api, 'POST', '/api/auth/login', {
      body: { email: user.email.toUpperCase(), password: 'correct horse battery' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user).toEqual(user);
    const wrong = await call(api, 'POST', '/api/auth/login', {
      body: { email: user.email, password: 'wrong one!' },
    });
    expect(wrong).toEqual({ status: 401, body: errorOf('unauthenticated') });
    const nobody = await call(api, 'POST', '/api/auth/login', {
      body: { email: 'nobody@example.com', password: 'correct horse battery' },
    });
    expect(nobody).toEqual({ status: 401, body: errorOf('unauthenticated') });
  });

  it('makes admins of the accounts ADMIN_EMAILS names, whatever the case, once their address is proven', async () => {
    // Unproven, it is no admin: email-verification.spec proves one through its mailed link.
    const res = await registerAdmin(api, db.url, ADMIN, 'Boss');
    expect(res.user).toMatchObject({ role: 'admin', emailVerified: true });
    expect((await call<User>(api, 'GET', '/api/auth/me', { token: res.token })).body.role).toBe('admin');
  });

  it('refuses a missing, tampered, expired or foreign token with a 401', async () => {
    const { token, user } = await register(api, 'tokens');
    const now = Math.floor(Date.now() / 1000);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const tampered = `${header}.${Buffer.from(JSON.stringify({ sub: 'someone-else' })).toString('base64url')}.${signature}`;
    const bad = [
      undefined,
      'not-a-jwt',
      tampered,
      `${header}.${payload}.${signature.slice(0, -2)}xx`,
      await forge({ sub: user.id, exp: now - 60 }),
      await forge({ sub: user.id, iss: 'someone-else' }),
      await forge({ sub: user.id, aud: 'another-api' }),
      await forge({ sub: user.id, alg: 'HS512' }),
      await forge({ sub: user.id }, new TextEncoder().encode('another-secret-that-is-long-enough-too')),
    ];
    for (const candidate of bad) {
      const res = await call(api, 'GET', '/api/auth/me', candidate ? { token: candidate } : {});
      expect(res).toEqual({ status: 401, body: errorOf('unauthenticated') });
    }
    // The same forgery with nothing changed passes: the refusals above are for what was changed.
    expect((await call(api, 'GET', '/api/auth/me', { token: await forge({ sub: user.id }) })).status).toBe(
      200,
    );
  });
});
