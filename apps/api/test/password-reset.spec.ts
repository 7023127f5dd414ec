import { PASSWORD_RESET_ACCEPTED, type AuthResponse } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { useApiPair } from './support/api-pair';
import { me, PASSWORD, refresh, signIn, sql } from './support/browser-session';
import { send } from './support/cookie-call';
import { callFrom } from './support/from-address';
import { startMailSink, tokenOf, type MailSink } from './support/mail-sink';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';

const NEW_PASSWORD = 'a brand new passphrase';

// Each step hashes a password (argon2) and waits for a mail: seconds, not milliseconds.
jest.setTimeout(30_000);

describe('forgot password: a mailed link sets a new password once', () => {
  let db: TestDatabase;
  let mail: MailSink;
  let api: TestApi;
  /** each test asks from a loopback address of its own, so the per-address limit is its own */
  let client = 10;
  const from = () => `127.0.0.${(client += 1)}`;

  beforeAll(async () => {
    db = await createTestDatabase('api_password_reset');
    mail = await startMailSink();
    api = await startApi({
      DATABASE_URL: db.url,
      SMTP_URL: mail.url,
      PUBLIC_URL: 'https://tidy.example.com/',
    });
  }, 30_000);

  afterAll(async () => {
    await api?.close();
    await mail?.close();
    await db?.drop();
  });

  const ask = (address: string, email: string) =>
    callFrom(address, api.base, 'POST', '/api/auth/password-reset', { email });
  const confirm = (token: string, password = NEW_PASSWORD) =>
    send<AuthResponse>(api, 'POST', '/api/auth/password-reset/confirm', { body: { token, password } });

  it('mails a link to the page that sets a new password; it signs the person in and every other session out', async () => {
    const { user } = await register(api, 'forgetful');
    const laptop = await signIn(api, user.email);
    const phone = await signIn(api, user.email);
    await mail.next(user.email); // the welcome mail, with its link to confirm the address

    const asked = await ask(from(), user.email.toUpperCase());
    expect(asked).toMatchObject({ status: 202, body: PASSWORD_RESET_ACCEPTED });
    const letter = await mail.next(user.email);
    expect(letter).toMatchObject({
      subject: 'Set a new password for Sweatpants',
      from: 'no-reply@tidy.example.com',
    });
    expect(letter.text).toContain('within 30 minutes');
    expect(letter.link?.origin).toBe('https://tidy.example.com');
    expect(letter.link?.pathname).toBe('/reset-password');
    expect(letter.link?.searchParams.has('first')).toBe(false);

    const reset = await confirm(tokenOf(letter));
    expect(reset.status).toBe(200);
    // The mail reached the address: it is proven by the same link.
    expect(reset.body.user).toEqual({ ...user, emailVerified: true });
    expect(reset.refresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await me(api, reset.body.token)).toBe(200);

    // Every session from before is over, its access token and its refresh token alike.
    for (const session of [laptop, phone]) {
      expect(await me(api, session.token)).toBe(401);
      expect((await refresh(api, session.refresh)).status).toBe(401);
    }
    expect(
      (await call(api, 'POST', '/api/auth/login', { body: { email: user.email, password: PASSWORD } }))
        .status,
    ).toBe(401);
    expect((await signIn(api, user.email, NEW_PASSWORD)).token).toEqual(expect.any(String));
  });

  it('keeps only a hash of the token', async () => {
    const { user } = await register(api, 'hashed');
    await mail.next(user.email);
    await ask(from(), user.email);
    const token = tokenOf(await mail.next(user.email));
    const stored = await sql<{ hash: string }>(
      db.url,
      `SELECT encode(token_hash, 'hex') AS hash FROM email_tokens`,
    );
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain(Buffer.from(token, 'base64url').toString('hex'));
  });

  it('refuses a used link, an expired one and one never sent, plainly, and changes nothing', async () => {
    const { user } = await register(api, 'careful');
    await mail.next(user.email);
    const address = from();
    await ask(address, user.email);
    const first = tokenOf(await mail.next(user.email));
    await ask(address, user.email);
    const second = tokenOf(await mail.next(user.email));

    expect((await confirm(first)).status).toBe(200);
    // Used: the link itself, and the account's other reset link with it.
    for (const used of [first, second]) {
      const again = await confirm(used, 'yet another passphrase');
      expect(again).toMatchObject({ status: 400, body: errorOf('invalid_request') });
      expect(again.body).toMatchObject({
        error: {
          message: 'this link was used already: ask for a new one to set a new password',
          details: [{ field: 'token', message: 'was used already' }],
        },
      });
    }

    await ask(address, user.email);
    const late = tokenOf(await mail.next(user.email));
    // Half an hour on: the link's time is up.
    await sql(
      db.url,
      `UPDATE email_tokens SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`,
    );
    const expired = await confirm(late, 'yet another passphrase');
    expect(expired).toMatchObject({ status: 400 });
    expect(expired.body).toMatchObject({ error: { details: [{ field: 'token', message: 'has expired' }] } });

    const forged = await confirm('a'.repeat(43), 'yet another passphrase');
    expect(forged.body).toMatchObject({
      error: { details: [{ field: 'token', message: 'is not a link this product sent' }] },
    });
    // Only the first link's password took.
    await signIn(api, user.email, NEW_PASSWORD);
  });

  it('tells an account with no password yet (one an identity provider made) that the link sets its first', async () => {
    const { user } = await register(api, 'passwordless');
    await mail.next(user.email);
    await sql(db.url, `UPDATE users SET password_hash = NULL WHERE id = $1`, [user.id]);

    await ask(from(), user.email);
    const letter = await mail.next(user.email);
    expect(letter.subject).toBe('Set a password for Sweatpants');
    expect(letter.text).toContain('You sign in without one today');
    expect(letter.text).toContain('If you did not ask, ignore this mail: nothing changes.');
    expect(letter.text).not.toContain('your password stays as it is');
    // The page the link opens asks for a password, not a new one.
    expect(letter.link?.searchParams.get('first')).toBe('1');

    expect((await confirm(tokenOf(letter))).status).toBe(200);
    await signIn(api, user.email, NEW_PASSWORD);
  });

  it('answers an unknown email exactly as a known one, in about the same time, and mails nobody', async () => {
    const known = await Promise.all([1, 2, 3, 4, 5].map(() => register(api, 'known')));
    for (const { user } of known) await mail.next(user.email);
    const unknown = known.map((_, i) => `nobody-${i}-${Date.now()}@example.com`);
    const timed = async (email: string) => {
      const started = performance.now();
      const answer = await ask(from(), email);
      return { answer, ms: performance.now() - started };
    };
    const knownAnswers: Awaited<ReturnType<typeof timed>>[] = [];
    const unknownAnswers: Awaited<ReturnType<typeof timed>>[] = [];
    for (let i = 0; i < known.length; i++) {
      knownAnswers.push(await timed(known[i]!.user.email));
      unknownAnswers.push(await timed(unknown[i]!));
    }
    for (const { answer } of [...knownAnswers, ...unknownAnswers]) {
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 202,
        body: PASSWORD_RESET_ACCEPTED,
      });
    }
    const median = (list: { ms: number }[]) =>
      list.map((t) => t.ms).sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    expect(Math.abs(median(knownAnswers) - median(unknownAnswers))).toBeLessThan(50);
    for (const { user } of known)
      expect((await mail.next(user.email)).subject).toBe('Set a new password for Sweatpants');
    for (const email of unknown) await mail.nothingFor(email, 100);
  });

  it('limits requests per email and per client address with a 429 in the error shape', async () => {
    const { user } = await register(api, 'flooded');
    // Three a quarter of an hour for one address, from anywhere.
    for (let i = 0; i < 3; i++) expect((await ask(from(), user.email)).status).toBe(202);
    const perEmail = await ask(from(), user.email.toUpperCase());
    expect(perEmail).toMatchObject({ status: 429, body: errorOf('rate_limited') });
    expect(perEmail.body).toMatchObject({ error: { details: { retryAfterSeconds: expect.any(Number) } } });
    expect(Number(perEmail.retryAfter)).toBeGreaterThan(0);
    expect(Number(perEmail.retryAfter)).toBeLessThanOrEqual(15 * 60);

    // Ten a quarter of an hour from one client, whatever emails it names; another client goes on.
    const address = from();
    for (let i = 0; i < 10; i++) expect((await ask(address, `someone-${i}@example.com`)).status).toBe(202);
    expect(await ask(address, 'someone-else@example.com')).toMatchObject({
      status: 429,
      body: errorOf('rate_limited'),
    });
    expect((await ask(from(), 'someone-else@example.com')).status).toBe(202);
  });

  it('refuses a weak new password or a missing token, naming the field', async () => {
    const weak = await confirm('some-token', 'short');
    expect(weak).toMatchObject({ status: 400, body: errorOf('invalid_request') });
    expect(weak.body).toMatchObject({ error: { details: [expect.objectContaining({ field: 'password' })] } });
    const missing = await call(api, 'POST', '/api/auth/password-reset/confirm', {
      body: { password: NEW_PASSWORD },
    });
    expect(missing).toMatchObject({ status: 400, body: errorOf('invalid_request') });
  });
});

describe('forgot password across api processes', () => {
  let mail: MailSink;
  beforeAll(async () => {
    mail = await startMailSink();
  });
  afterAll(() => mail?.close());
  const pair = useApiPair('api_password_reset_pair', {}, () => ({ SMTP_URL: mail.url }));

  it('a reset on one process signs the person out on the other within a second', async () => {
    const { user } = await register(pair.a, 'roamer');
    await mail.next(user.email);
    const onB = await signIn(pair.b, user.email);
    expect(await me(pair.b, onB.token)).toBe(200);

    await call(pair.a, 'POST', '/api/auth/password-reset', { body: { email: user.email } });
    const token = tokenOf(await mail.next(user.email));
    const reset = await call<AuthResponse>(pair.a, 'POST', '/api/auth/password-reset/confirm', {
      body: { token, password: NEW_PASSWORD },
    });
    expect(reset.status).toBe(200);
    const answered = Date.now();
    let refused = await me(pair.b, onB.token);
    while (refused === 200 && Date.now() - answered < 1_000) refused = await me(pair.b, onB.token);
    expect(refused).toBe(401);
    expect(Date.now() - answered).toBeLessThan(1_000);
    expect((await refresh(pair.b, onB.refresh)).status).toBe(401);
    expect(await me(pair.b, reset.body.token)).toBe(200);
  });
});
