import type { AuthResponse } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { useApiPair } from './support/api-pair';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';
import { connect } from './support/test-socket';

const PASSWORD = 'correct horse battery';

describe('taking tokens back: sign out everywhere, a new password', () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_revocation');
    api = await startApi({ DATABASE_URL: db.url });
  }, 30_000);

  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const me = async (token: string) => (await call(api, 'GET', '/api/auth/me', { token })).status;
  const login = (email: string, password: string) =>
    call<AuthResponse>(api, 'POST', '/api/auth/login', { body: { email, password } });

  it('signs out everywhere: every token so far is refused, over HTTP and at the socket; a new sign-in works', async () => {
    const account = await register(api, 'laptop');
    const phone = (await login(account.user.email, PASSWORD)).body.token;
    const socket = await connect(api, phone);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    expect(await call(api, 'POST', '/api/auth/sign-out-everywhere', { token: account.token })).toEqual({
      status: 204,
      body: undefined,
    });
    expect(await me(account.token)).toBe(401);
    expect(await me(phone)).toBe(401);
    expect(await closed).toBe('io server disconnect');
    await expect(connect(api, phone)).rejects.toMatchObject({ data: { code: 'unauthenticated' } });

    const again = await login(account.user.email, PASSWORD);
    expect(again.status).toBe(200);
    expect(await me(again.body.token)).toBe(200);
    (await connect(api, again.body.token)).close();
  });

  it('changes the password: earlier tokens stop, the answer’s token works, only the new password signs in', async () => {
    const account = await register(api, 'changer');
    const other = await register(api, 'bystander');
    const changed = await call<AuthResponse>(api, 'POST', '/api/account/password', {
      token: account.token,
      body: { currentPassword: PASSWORD, newPassword: 'a much better passphrase' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.user).toEqual(account.user);
    expect(await me(account.token)).toBe(401);
    expect(await me(changed.body.token)).toBe(200);
    expect((await login(account.user.email, PASSWORD)).status).toBe(401);
    expect((await login(account.user.email, 'a much better passphrase')).status).toBe(200);
    // Nobody else is signed out.
    expect(await me(other.token)).toBe(200);
  });

  it('refuses a wrong current password or a weak new one, naming the field, and changes nothing', async () => {
    const account = await register(api, 'careful');
    const wrong = await call(api, 'POST', '/api/account/password', {
      token: account.token,
      body: { currentPassword: 'not my password', newPassword: 'a much better passphrase' },
    });
    expect(wrong).toEqual({
      status: 400,
      body: errorOf('invalid_request'),
    });
    expect(wrong.body).toMatchObject({
      error: { details: [{ field: 'currentPassword', message: 'is not your current password' }] },
    });
    const weak = await call(api, 'POST', '/api/account/password', {
      token: account.token,
      body: { currentPassword: PASSWORD, newPassword: 'short' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({ error: { details: [{ field: 'newPassword' }] } });
    expect(await me(account.token)).toBe(200);
    expect((await login(account.user.email, PASSWORD)).status).toBe(200);
  });

  it('asks for a signed-in caller', async () => {
    expect((await call(api, 'POST', '/api/auth/sign-out-everywhere')).status).toBe(401);
    expect(
      (await call(api, 'POST', '/api/account/password', { body: { currentPassword: 'a', newPassword: 'b' } }))
        .status,
    ).toBe(401);
  });
});

describe('taking tokens back across api processes', () => {
  const pair = useApiPair('api_revocation_two');

  const me = async (api: TestApi, token: string) =>
    (await call(api, 'GET', '/api/auth/me', { token })).status;

  it('a sign-out on one process is refused at once on the other, over HTTP and at the socket', async () => {
    const account = await register(pair.a, 'two-sites');
    // The other process has just checked the token, so it holds the account's generation.
    expect(await me(pair.b, account.token)).toBe(200);
    const socket = await connect(pair.b, account.token);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    expect(
      (await call(pair.a, 'POST', '/api/auth/sign-out-everywhere', { token: account.token })).status,
    ).toBe(204);
    expect(await me(pair.b, account.token)).toBe(401);
    await expect(connect(pair.b, account.token)).rejects.toMatchObject({ data: { code: 'unauthenticated' } });
    expect(await closed).toBe('io server disconnect');
  });

  it('a password changed on one process: the other refuses the old token and takes the new one', async () => {
    const account = await register(pair.b, 'two-passwords');
    expect(await me(pair.a, account.token)).toBe(200);
    const changed = await call<AuthResponse>(pair.b, 'POST', '/api/account/password', {
      token: account.token,
      body: { currentPassword: PASSWORD, newPassword: 'a much better passphrase' },
    });
    expect(changed.status).toBe(200);
    expect(await me(pair.a, account.token)).toBe(401);
    expect(await me(pair.a, changed.body.token)).toBe(200);
    (await connect(pair.a, changed.body.token)).close();
  });
});
