import type {
  AuthResponse,
  Passkey,
  PasskeyList,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { Client } from 'pg';
import { useApiPair } from './support/api-pair';
import { send } from './support/cookie-call';
import { SoftwareAuthenticator } from './support/software-authenticator';
import { call, client, errorOf, register, registerAdmin, startApi, type TestApi } from './support/test-api';

/** Where the person's browser has the product open: the relying party the api is configured for. */
const PUBLIC_URL = 'http://localhost:4310';
const ADMIN = 'passkeys-admin@example.com';
const CHROME_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const creationOptions = async (api: TestApi, token: string) => {
  const answer = await call<PublicKeyCredentialCreationOptionsJSON>(
    api,
    'POST',
    '/api/auth/passkeys/options',
    {
      token,
    },
  );
  expect(answer.status).toBe(200);
  return answer.body;
};

const signInOptions = async (api: TestApi) => {
  const answer = await call<PublicKeyCredentialRequestOptionsJSON>(
    api,
    'POST',
    '/api/auth/passkey-sign-in/options',
  );
  expect(answer.status).toBe(200);
  return answer.body;
};

const addPasskey = (api: TestApi, token: string, name: string, credential: RegistrationResponseJSON) =>
  call<Passkey>(api, 'POST', '/api/auth/passkeys', { token, body: { name, credential } });

const passkeysOf = async (api: TestApi, token: string) =>
  (await call<PasskeyList>(api, 'GET', '/api/auth/passkeys', { token })).body.items;

/** The person on this device adds a passkey: options, the authenticator's answer, the api's verdict. */
async function addedPasskey(api: TestApi, token: string, device: SoftwareAuthenticator, name: string) {
  const answer = await addPasskey(api, token, name, device.register(await creationOptions(api, token)));
  expect(answer.status).toBe(201);
  return answer.body;
}

const passkeySignIn = (api: TestApi, credential: unknown, headers: Record<string, string> = {}) =>
  send<AuthResponse>(api, 'POST', '/api/auth/passkey-sign-in', { body: { credential }, headers });

async function sql(url: string, text: string, params: unknown[] = []): Promise<void> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(text, params);
  } finally {
    await db.end();
  }
}

describe('passkeys: a person adds one on the account page and signs in with it, no password', () => {
  let db: TestDatabase;
  let api: TestApi;
  let admin: AuthResponse;

  beforeAll(async () => {
    db = await createTestDatabase('api_passkeys');
    api = await startApi({ DATABASE_URL: db.url, PUBLIC_URL, ADMIN_EMAILS: ADMIN });
    admin = await registerAdmin(api, db.url, ADMIN);
  }, 30_000);

  afterAll(async () => {
    await api.close();
    await db.drop();
  });

  it('adds a discoverable passkey for PUBLIC_URL, then signs in with it as a password sign-in does', async () => {
    const person = await register(api, 'ada');
    const laptop = new SoftwareAuthenticator(PUBLIC_URL);

    const options = await creationOptions(api, person.token);
    expect(options.rp).toEqual({ id: 'localhost', name: 'Sweatpants' });
    expect(options.user).toEqual(expect.objectContaining({ name: person.user.email, displayName: 'ada' }));
    expect(options.authenticatorSelection).toEqual(
      expect.objectContaining({ residentKey: 'required', userVerification: 'preferred' }),
    );
    const added = await addPasskey(api, person.token, '  this laptop ', laptop.register(options));
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      name: 'this laptop',
      createdAt: expect.any(String),
      lastUsedAt: null,
    });
    expect(await passkeysOf(api, person.token)).toEqual([added.body]);

    // Next time, on the sign-in page: no email, no password; the passkey says whose it is.
    const request = await signInOptions(api);
    expect(request.rpId).toBe('localhost');
    expect(request.allowCredentials ?? []).toEqual([]);
    expect(request.userVerification).toBe('preferred');
    const signedIn = await passkeySignIn(api, laptop.authenticate(request), {
      'user-agent': CHROME_ON_LINUX,
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user).toEqual(person.user);
    expect(signedIn.setCookie).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await call(api, 'GET', '/api/auth/me', { token: signedIn.body.token })).status).toBe(200);
    // The session carries on as any other: its refresh cookie renews it.
    const renewed = await send<AuthResponse>(api, 'POST', '/api/auth/refresh', {
      refresh: signedIn.refresh ?? '',
    });
    expect(renewed.status).toBe(200);

    const [listed] = await passkeysOf(api, person.token);
    expect(listed?.lastUsedAt).not.toBeNull();
    // The account page says how each device signed in.
    const sessions = await call<{ items: { device: string; signedInWith: string }[] }>(
      api,
      'GET',
      '/api/auth/sessions',
      {
        token: signedIn.body.token,
      },
    );
    expect(sessions.body.items).toContainEqual(
      expect.objectContaining({ device: 'Chrome on Linux', signedInWith: 'passkey' }),
    );
  });

  it('answers each challenge once: a sign-in or a registration sent again is refused', async () => {
    const person = await register(api, 'bo');
    const phone = new SoftwareAuthenticator(PUBLIC_URL);
    const registration = phone.register(await creationOptions(api, person.token));
    expect((await addPasskey(api, person.token, 'phone', registration)).status).toBe(201);
    const again = await addPasskey(api, person.token, 'phone again', registration);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(errorOf('invalid_request'));
    expect(JSON.stringify(again.body)).toMatch(/credential/);

    const assertion = phone.authenticate(await signInOptions(api));
    expect((await passkeySignIn(api, assertion)).status).toBe(200);
    const replayed = await passkeySignIn(api, assertion);
    expect(replayed.status).toBe(401);
    expect(replayed.body).toEqual(errorOf('unauthenticated'));
    expect(replayed.setCookie).toBeUndefined();
  });

  it('refuses a passkey answer made for another origin or relying party, and uses up its challenge', async () => {
    const person = await register(api, 'cy');
    const device = new SoftwareAuthenticator(PUBLIC_URL);

    // A look-alike site relaying our challenge: the browser signs its own origin into the answer.
    const phished = device.register(await creationOptions(api, person.token), {
      origin: 'https://sweatpants.example.net',
    });
    expect((await addPasskey(api, person.token, 'phished', phished)).status).toBe(400);
    const otherRp = device.register(await creationOptions(api, person.token), { rpId: 'example.net' });
    expect((await addPasskey(api, person.token, 'other rp', otherRp)).status).toBe(400);
    expect(await passkeysOf(api, person.token)).toEqual([]);

    await addedPasskey(api, person.token, device, 'this laptop');
    const request = await signInOptions(api);
    const elsewhere = device.authenticate(request, { origin: 'https://sweatpants.example.net' });
    expect((await passkeySignIn(api, elsewhere)).status).toBe(401);
    // The refused answer used its challenge up: a right answer to it comes too late.
    expect((await passkeySignIn(api, device.authenticate(request))).status).toBe(401);
    const wrongRp = device.authenticate(await signInOptions(api), { rpId: 'example.net' });
    expect((await passkeySignIn(api, wrongRp)).status).toBe(401);
    expect((await passkeySignIn(api, device.authenticate(await signInOptions(api)))).status).toBe(200);
  });

  it('refuses a passkey no account has, and malformed answers with the error shape', async () => {
    const stranger = new SoftwareAuthenticator(PUBLIC_URL);
    const person = await register(api, 'di');
    // Made for the challenge, then never added: the api knows no such passkey.
    stranger.register(await creationOptions(api, person.token));
    const unknown = await passkeySignIn(api, stranger.authenticate(await signInOptions(api)));
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(errorOf('unauthenticated'));

    const malformed = await passkeySignIn(api, { id: 'x', type: 'public-key' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual(errorOf('invalid_request'));
  });

  it('removes a passkey, and refuses to remove the last way to sign in', async () => {
    const person = await register(api, 'ed');
    const laptop = new SoftwareAuthenticator(PUBLIC_URL);
    const first = await addedPasskey(api, person.token, laptop, 'laptop');
    // The password is still a way in: the only passkey may go.
    expect(
      (await call(api, 'DELETE', `/api/auth/passkeys/${first.id}`, { token: person.token })).status,
    ).toBe(204);
    expect(await passkeysOf(api, person.token)).toEqual([]);
    expect((await passkeySignIn(api, laptop.authenticate(await signInOptions(api)))).status).toBe(401);

    // An account with no password (as one made through an identity provider is; no route makes one yet).
    const phone = new SoftwareAuthenticator(PUBLIC_URL);
    const key = new SoftwareAuthenticator(PUBLIC_URL);
    const onPhone = await addedPasskey(api, person.token, phone, 'phone');
    const onKey = await addedPasskey(api, person.token, key, 'security key');
    await sql(db.url, `UPDATE users SET password_hash = NULL WHERE id = $1`, [person.user.id]);
    const login = await call(api, 'POST', '/api/auth/login', {
      body: { email: person.user.email, password: 'correct horse battery' },
    });
    expect(login.status).toBe(401);

    expect(
      (await call(api, 'DELETE', `/api/auth/passkeys/${onKey.id}`, { token: person.token })).status,
    ).toBe(204);
    const last = await call(api, 'DELETE', `/api/auth/passkeys/${onPhone.id}`, { token: person.token });
    expect(last.status).toBe(409);
    expect(last.body).toEqual(errorOf('conflict'));
    expect(JSON.stringify(last.body)).toMatch(/last way to sign in/);
    expect(await passkeysOf(api, person.token)).toEqual([expect.objectContaining({ id: onPhone.id })]);
    expect((await passkeySignIn(api, phone.authenticate(await signInOptions(api)))).status).toBe(200);
  });

  it("keeps each person's passkeys their own, and a personal access token out of them", async () => {
    const owner = await register(api, 'fa');
    const other = await register(api, 'gu');
    const passkey = await addedPasskey(api, owner.token, new SoftwareAuthenticator(PUBLIC_URL), 'laptop');
    expect(
      (await call(api, 'DELETE', `/api/auth/passkeys/${passkey.id}`, { token: other.token })).status,
    ).toBe(404);
    expect(await passkeysOf(api, other.token)).toEqual([]);

    // A registration challenge is the account's that asked: another account cannot answer it.
    const stolen = new SoftwareAuthenticator(PUBLIC_URL).register(await creationOptions(api, owner.token));
    expect((await addPasskey(api, other.token, 'stolen', stolen)).status).toBe(400);

    const pat = await client(api, owner.token).createAccessToken({ body: { name: 'script' } });
    expect((await call(api, 'POST', '/api/auth/passkeys/options', { token: pat.token })).status).toBe(403);
    expect((await call(api, 'DELETE', `/api/auth/passkeys/${passkey.id}`, { token: pat.token })).status).toBe(
      403,
    );
  });

  it("puts passkey sign-ins, passkeys added and removed in the admins' audit", async () => {
    const person = await register(api, 'ha');
    const laptop = new SoftwareAuthenticator(PUBLIC_URL);
    const passkey = await addedPasskey(api, person.token, laptop, 'work laptop');
    await passkeySignIn(api, laptop.authenticate(await signInOptions(api)), {
      'user-agent': CHROME_ON_LINUX,
    });
    await call(api, 'DELETE', `/api/auth/passkeys/${passkey.id}`, { token: person.token });

    const audit = await client(api, admin.token).adminAccountEvents({ query: { userId: person.user.id } });
    expect(audit.items.map(({ kind, detail, email }) => ({ kind, detail, email }))).toEqual([
      { kind: 'passkey-removed', detail: 'work laptop', email: person.user.email },
      { kind: 'signed-in', detail: 'with a passkey on Chrome on Linux', email: person.user.email },
      { kind: 'passkey-added', detail: 'work laptop', email: person.user.email },
    ]);
    expect((await call(api, 'GET', '/api/admin/account-events', { token: person.token })).status).toBe(403);
  });
});

describe('passkeys where passwords are turned off (PASSWORD_SIGNIN=off)', () => {
  let db: TestDatabase;
  let withPasswords: TestApi;
  let providerOnly: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_passkeys_no_passwords');
    withPasswords = await startApi({ DATABASE_URL: db.url, PUBLIC_URL });
    // The provider is never asked here: discovery waits for the first sign-in with it.
    providerOnly = await startApi({
      DATABASE_URL: db.url,
      PUBLIC_URL,
      PASSWORD_SIGNIN: 'off',
      OIDC_ISSUER: 'http://127.0.0.1:9/never-asked',
      OIDC_CLIENT_ID: 'sweatpants',
    });
  }, 30_000);

  afterAll(async () => {
    await providerOnly.close();
    await withPasswords.close();
    await db.drop();
  });

  it('does not count a password the deployment no longer takes as a way to sign in', async () => {
    // An account from before passwords were turned off, with a passkey (and no provider link yet).
    const person = await register(withPasswords, 'jo');
    const laptop = new SoftwareAuthenticator(PUBLIC_URL);
    const passkey = await addedPasskey(withPasswords, person.token, laptop, 'laptop');

    const last = await call(providerOnly, 'DELETE', `/api/auth/passkeys/${passkey.id}`, {
      token: person.token,
    });
    expect(last.status).toBe(409);
    expect(
      (await passkeySignIn(providerOnly, laptop.authenticate(await signInOptions(providerOnly)))).status,
    ).toBe(200);
  });
});

describe('passkeys across api processes', () => {
  const pair = useApiPair('api_passkeys_two', { PUBLIC_URL });

  it('takes a challenge handed out by one process on the other, once', async () => {
    const person = await register(pair.a, 'io');
    const laptop = new SoftwareAuthenticator(PUBLIC_URL);
    const registration = laptop.register(await creationOptions(pair.a, person.token));
    expect((await addPasskey(pair.b, person.token, 'laptop', registration)).status).toBe(201);

    const assertion = laptop.authenticate(await signInOptions(pair.b));
    expect((await passkeySignIn(pair.a, assertion)).status).toBe(200);
    expect((await passkeySignIn(pair.b, assertion)).status).toBe(401);
  });
});
