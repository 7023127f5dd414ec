import type { AuthResponse, User, VerifiedEmail } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { me, PASSWORD, refresh, signIn, sql } from './support/browser-session';
import { send } from './support/cookie-call';
import { startMailSink, tokenOf, type MailSink } from './support/mail-sink';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';

// Each step hashes a password (argon2) and waits for a mail: seconds, not milliseconds.
jest.setTimeout(30_000);

const ADMIN = 'Boss@Example.com';

describe('proving an email: a new account is mailed a link that proves its address', () => {
  let db: TestDatabase;
  let mail: MailSink;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_email_verification');
    mail = await startMailSink();
    api = await startApi({
      DATABASE_URL: db.url,
      SMTP_URL: mail.url,
      PUBLIC_URL: 'http://localhost:4300',
      MAIL_FROM: 'Tidy Team <hello@tidy.example.com>',
      ADMIN_EMAILS: ADMIN.toLowerCase(),
    });
  }, 30_000);

  afterAll(async () => {
    await api?.close();
    await mail?.close();
    await db?.drop();
  });

  const verify = (token: string) =>
    call<VerifiedEmail>(api, 'POST', '/api/auth/verify-email', { body: { token } });
  const whoAmI = async (token: string) => (await call<User>(api, 'GET', '/api/auth/me', { token })).body;

  it('marks a new account unverified and mails it a link; the link proves it, and the next refresh says so', async () => {
    const registered = await send<AuthResponse>(api, 'POST', '/api/auth/register', {
      body: { email: 'robin@example.com', password: PASSWORD, displayName: 'Robin' },
    });
    expect(registered.body.user).toMatchObject({ email: 'robin@example.com', emailVerified: false });
    expect(await whoAmI(registered.body.token)).toMatchObject({ emailVerified: false });

    const letter = await mail.next('robin@example.com');
    expect(letter).toMatchObject({
      subject: 'Confirm your email for Sweatpants',
      from: 'hello@tidy.example.com',
    });
    expect(letter.text).toContain('The link works for 24 hours');
    expect(`${letter.link?.origin}${letter.link?.pathname}`).toBe('http://localhost:4300/verify-email');

    // Opened anywhere (the mail may be read on another device): no session needed.
    expect(await verify(tokenOf(letter))).toEqual({ status: 200, body: { email: 'robin@example.com' } });
    const refreshed = await refresh(api, registered.refresh ?? '');
    expect(refreshed.body.user).toMatchObject({ emailVerified: true });
    expect(await whoAmI(refreshed.body.token)).toMatchObject({ emailVerified: true });
    const again = await signIn(api, 'robin@example.com');
    expect(await whoAmI(again.token)).toMatchObject({ emailVerified: true });
  });

  it('refuses a used link, an expired one and one never sent', async () => {
    const { user } = await register(api, 'linker');
    const first = tokenOf(await mail.next(user.email));
    expect((await verify(first)).status).toBe(200);
    const used = await verify(first);
    expect(used).toMatchObject({ status: 400, body: errorOf('invalid_request') });
    expect(used.body).toMatchObject({
      error: {
        message: 'this link was used already: ask for a new one to confirm your email',
        details: [{ field: 'token', message: 'was used already' }],
      },
    });

    const { user: late } = await register(api, 'late');
    const lateToken = tokenOf(await mail.next(late.email));
    // A day on: the link's time is up, and the address stays unproven.
    await sql(
      db.url,
      `UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
    );
    expect((await verify(lateToken)).body).toMatchObject({
      error: { details: [{ field: 'token', message: 'has expired' }] },
    });
    expect(await whoAmI((await signIn(api, late.email)).token)).toMatchObject({ emailVerified: false });

    expect((await verify('b'.repeat(43))).body).toMatchObject({
      error: { details: [{ field: 'token', message: 'is not a link this product sent' }] },
    });
  });

  it('mails a new link when asked, a few times a quarter hour; a proven address is a 409', async () => {
    const { user, token } = await register(api, 'again');
    await mail.next(user.email);
    const resend = () => call(api, 'POST', '/api/auth/verify-email/resend', { token });
    expect(await resend()).toEqual({ status: 202, body: undefined });
    const second = await mail.next(user.email);
    expect(second.text).toContain('Here is a new link');
    await resend();
    await resend();
    await mail.next(user.email);
    await mail.next(user.email);
    expect(await resend()).toMatchObject({ status: 429, body: errorOf('rate_limited') });

    const { user: proven, token: provenToken } = await register(api, 'proven');
    await verify(tokenOf(await mail.next(proven.email)));
    expect(await call(api, 'POST', '/api/auth/verify-email/resend', { token: provenToken })).toMatchObject({
      status: 409,
      body: errorOf('conflict'),
    });
  });

  it('makes no admin of an unproven address ADMIN_EMAILS names; once proven, it is one, whatever the case', async () => {
    const registered = await send<AuthResponse>(api, 'POST', '/api/auth/register', {
      body: { email: ADMIN, password: PASSWORD, displayName: 'Boss' },
    });
    expect(registered.body.user).toMatchObject({ role: 'user', emailVerified: false });
    expect(await whoAmI(registered.body.token)).toMatchObject({ role: 'user' });
    expect(
      (await call(api, 'GET', '/api/admin/conversations', { token: registered.body.token })).status,
    ).toBe(403);

    await verify(tokenOf(await mail.next(ADMIN)));
    const refreshed = await refresh(api, registered.refresh ?? '');
    expect(refreshed.body.user).toMatchObject({ role: 'admin', emailVerified: true });
    expect((await call(api, 'GET', '/api/admin/conversations', { token: refreshed.body.token })).status).toBe(
      200,
    );
  });

  it('changes the email with the password: the new address is unproven and mailed, the old one told, every session ends', async () => {
    const { user } = await register(api, 'mover');
    await verify(tokenOf(await mail.next(user.email)));
    const session = await signIn(api, user.email);
    const other = await signIn(api, user.email);
    const newEmail = `moved-${Date.now()}@example.com`;

    const wrong = await call(api, 'POST', '/api/account/email', {
      token: session.token,
      body: { email: newEmail, password: 'not my password' },
    });
    expect(wrong).toMatchObject({ status: 400, body: errorOf('invalid_request') });
    expect(wrong.body).toMatchObject({
      error: { details: [{ field: 'password', message: 'is not your password' }] },
    });

    const changed = await send<AuthResponse>(api, 'POST', '/api/account/email', {
      token: session.token,
      body: { email: newEmail, password: PASSWORD },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.user).toEqual({ ...user, email: newEmail, emailVerified: false });
    for (const old of [session, other]) {
      expect(await me(api, old.token)).toBe(401);
      expect((await refresh(api, old.refresh)).status).toBe(401);
    }
    const notice = await mail.next(user.email);
    expect(notice.subject).toBe('Your Sweatpants email was changed');
    expect(notice.text).toContain(newEmail);
    const letter = await mail.next(newEmail);
    expect(letter.text).toContain('You changed the email of your Sweatpants account to this address');
    expect(
      (await call(api, 'POST', '/api/auth/login', { body: { email: user.email, password: PASSWORD } }))
        .status,
    ).toBe(401);

    expect(await verify(tokenOf(letter))).toEqual({ status: 200, body: { email: newEmail } });
    expect(await whoAmI((await signIn(api, newEmail)).token)).toMatchObject({ emailVerified: true });
  });

  it('refuses an address another account has (409) or the same one (400); a link to an old address proves nothing', async () => {
    const { user: taken } = await register(api, 'taken');
    await mail.next(taken.email);
    const { user, token } = await register(api, 'changer');
    const oldLink = tokenOf(await mail.next(user.email));
    const change = (email: string) =>
      call(api, 'POST', '/api/account/email', { token, body: { email, password: PASSWORD } });
    expect(await change(taken.email.toUpperCase())).toMatchObject({ status: 409, body: errorOf('conflict') });
    expect(await change(user.email)).toMatchObject({ status: 400, body: errorOf('invalid_request') });

    const moved = await call<AuthResponse>(api, 'POST', '/api/account/email', {
      token,
      body: { email: `elsewhere-${Date.now()}@example.com`, password: PASSWORD },
    });
    expect(moved.status).toBe(200);
    expect((await verify(oldLink)).body).toMatchObject({
      error: { details: [{ field: 'token', message: 'has expired' }] },
    });
    expect(await whoAmI(moved.body.token)).toMatchObject({ emailVerified: false });
  });

  it('refuses a change of email with a personal access token (it needs a sign-in)', async () => {
    const { user, token } = await register(api, 'scripted');
    await mail.next(user.email);
    const created = await call<{ token: string }>(api, 'POST', '/api/auth/tokens', {
      token,
      body: { name: 'ci' },
    });
    expect(
      await call(api, 'POST', '/api/account/email', {
        token: created.body.token,
        body: { email: `ci-${Date.now()}@example.com`, password: PASSWORD },
      }),
    ).toMatchObject({ status: 403, body: errorOf('forbidden') });
  });
});
