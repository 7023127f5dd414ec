import type { AccessTokenList, AuthResponse, CreatedAccessToken } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PgSqlClient } from '@sweatpants/tree-store';
import { useApiPair } from './support/api-pair';
import { createConversation, until } from './support/flows';
import { call, client, errorOf, register, registerAdmin, startApi, type TestApi } from './support/test-api';
import { connect, request, type ClientSocket } from './support/test-socket';

const PASSWORD = 'correct horse battery';
const ADMIN = 'token-admin@example.com';

/** How many personal access tokens the database keeps for the account. */
async function storedTokens(url: string, userId: string): Promise<number> {
  const sql = PgSqlClient.connect(url);
  try {
    const [row] = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM personal_access_tokens WHERE user_id = $1`,
      [userId],
    );
    return row?.n ?? 0;
  } finally {
    await sql.close();
  }
}

const create = (api: TestApi, token: string, name: string) =>
  client(api, token).createAccessToken({ body: { name } });
const list = (api: TestApi, token: string) => client(api, token).listAccessTokens();
const me = async (api: TestApi, token: string) => (await call(api, 'GET', '/api/auth/me', { token })).status;
const revoke = (api: TestApi, token: string, id: string) =>
  call(api, 'DELETE', `/api/auth/tokens/${id}`, { token });
const closedBy = (socket: ClientSocket) =>
  new Promise<string>((resolve) => socket.once('disconnect', resolve));

describe('personal access tokens (PROTOCOL.md)', () => {
  let db: TestDatabase;
  let api: TestApi;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('api_access_tokens');
    api = await startApi({ DATABASE_URL: db.url, ADMIN_EMAILS: ADMIN });
  }, 30_000);
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('shows a new token once: the list names it, never with the token itself', async () => {
    const alice = await register(api, 'alice');
    const created = await create(api, alice.token, '  laptop  ');

    expect(created).toEqual({
      id: expect.any(String),
      name: 'laptop',
      token: expect.stringMatching(/^spat_[A-Za-z0-9_-]{43}$/),
      createdAt: expect.any(String),
    });
    const listed = await list(api, alice.token);
    expect(listed).toEqual({
      items: [{ id: created.id, name: 'laptop', createdAt: created.createdAt, lastUsedAt: null }],
    });
    expect(JSON.stringify(listed)).not.toContain(created.token);
    // Only its hash is kept: the database cannot hand the token out either.
    const sql = PgSqlClient.connect(db.url);
    try {
      const rows = await sql.query<Record<string, unknown>>(
        `SELECT * FROM personal_access_tokens WHERE id = $1`,
        [created.id],
      );
      expect(JSON.stringify(rows)).not.toContain(created.token.slice(5));
    } finally {
      await sql.close();
    }
  });

  it('is taken wherever a session token is: an HTTP route and the socket handshake, as its owner', async () => {
    const bob = await register(api, 'bob');
    const { token } = await create(api, bob.token, 'script');

    expect(await call(api, 'GET', '/api/auth/me', { token })).toEqual({ status: 200, body: bob.user });
    const conversation = await createConversation(api, token);
    expect(conversation.ownerId).toBe(bob.user.id);

    const socket = await connect(api, token);
    sockets.push(socket);
    const joined = await request(socket, 'conversation:join', { conversationId: conversation.id });
    expect(joined).toMatchObject({ ok: true, conversation: { id: conversation.id } });
  });

  it('notes when it was last used, at most once a minute', async () => {
    const carol = await register(api, 'carol');
    const created = await create(api, carol.token, 'ci');
    const before = Date.now();

    expect(await me(api, created.token)).toBe(200);
    const [first] = (await list(api, carol.token)).items;
    expect(first?.lastUsedAt).not.toBeNull();
    expect(Date.parse(first?.lastUsedAt ?? '')).toBeGreaterThanOrEqual(before - 1_000);

    expect(await me(api, created.token)).toBe(200);
    expect((await list(api, carol.token)).items[0]?.lastUsedAt).toBe(first?.lastUsedAt);
  });

  it('revoked: refused at once over HTTP and at the handshake, its open socket closed, gone from the list', async () => {
    const dave = await register(api, 'dave');
    const kept = await create(api, dave.token, 'desktop');
    const revoked = await create(api, dave.token, 'old laptop');
    expect(await me(api, revoked.token)).toBe(200);
    const socket = await connect(api, revoked.token);
    sockets.push(socket);
    const closed = closedBy(socket);

    expect(await revoke(api, dave.token, revoked.id)).toEqual({ status: 204, body: undefined });

    expect(await call(api, 'GET', '/api/auth/me', { token: revoked.token })).toEqual({
      status: 401,
      body: errorOf('unauthenticated'),
    });
    await expect(connect(api, revoked.token)).rejects.toMatchObject({ data: { code: 'unauthenticated' } });
    expect(await closed).toBe('io server disconnect');
    expect((await list(api, dave.token)).items.map((t) => t.name)).toEqual(['desktop']);
    // The other token, and the session, carry on.
    expect(await me(api, kept.token)).toBe(200);
    expect(await me(api, dave.token)).toBe(200);
    // Revoked once is revoked: a second time there is no such token.
    expect((await revoke(api, dave.token, revoked.id)).status).toBe(404);
  });

  it("answers 404 for someone else's token, and leaves it working", async () => {
    const erin = await register(api, 'erin');
    const frank = await register(api, 'frank');
    const hers = await create(api, erin.token, 'erin’s');

    expect(await revoke(api, frank.token, hers.id)).toEqual({ status: 404, body: errorOf('not_found') });
    expect((await revoke(api, frank.token, 'not-a-token-id')).status).toBe(404);
    expect(await list(api, frank.token)).toEqual({ items: [] });
    expect(await me(api, hers.token)).toBe(200);
  });

  it('may not make more tokens nor delete the account: 403, and nothing changes', async () => {
    const gina = await register(api, 'gina');
    const { token } = await create(api, gina.token, 'mcp');

    const minted = await call(api, 'POST', '/api/auth/tokens', { token, body: { name: 'another' } });
    expect(minted).toEqual({ status: 403, body: errorOf('forbidden') });
    const deleted = await call(api, 'DELETE', '/api/account', { token, body: { password: PASSWORD } });
    expect(deleted).toEqual({ status: 403, body: errorOf('forbidden') });

    expect((await list(api, token)).items.map((t) => t.name)).toEqual(['mcp']);
    expect(await me(api, gina.token)).toBe(200);
  });

  it('refuses a name that is empty once trimmed or longer than 100 characters, naming `name`', async () => {
    const hal = await register(api, 'hal');
    for (const name of ['   ', 'x'.repeat(101), undefined]) {
      const answer = await call(api, 'POST', '/api/auth/tokens', {
        token: hal.token,
        body: name === undefined ? {} : { name },
      });
      expect(answer).toEqual({ status: 400, body: errorOf('invalid_request') });
      expect(answer.body).toMatchObject({ error: { details: [{ field: 'name' }] } });
    }
    expect(await list(api, hal.token)).toEqual({ items: [] });
    expect((await create(api, hal.token, 'y'.repeat(100))).name).toHaveLength(100);
  });

  it('outlives signing out everywhere (it is revoked on its own), but not the account', async () => {
    const ivy = await register(api, 'ivy');
    const { token } = await create(api, ivy.token, 'backup script');
    expect((await call(api, 'POST', '/api/auth/sign-out-everywhere', { token: ivy.token })).status).toBe(204);
    expect(await me(api, token)).toBe(200);

    const session = await call<AuthResponse>(api, 'POST', '/api/auth/login', {
      body: { email: ivy.user.email, password: PASSWORD },
    });
    expect(
      (await call(api, 'DELETE', '/api/account', { token: session.body.token, body: { password: PASSWORD } }))
        .status,
    ).toBe(204);
    expect(await me(api, token)).toBe(401);
    expect(await storedTokens(db.url, ivy.user.id)).toBe(0);
  });

  it('goes with an account an admin deletes', async () => {
    const admin = { body: await registerAdmin(api, db.url, ADMIN, 'Steward') };
    const jay = await register(api, 'jay');
    const { token } = await create(api, jay.token, 'cron');
    expect(await storedTokens(db.url, jay.user.id)).toBe(1);

    expect(
      (await call(api, 'DELETE', `/api/admin/users/${jay.user.id}`, { token: admin.body.token })).status,
    ).toBe(204);
    expect(await me(api, token)).toBe(401);
    expect(await storedTokens(db.url, jay.user.id)).toBe(0);
  });

  it('asks for a signed-in caller', async () => {
    expect((await call(api, 'GET', '/api/auth/tokens')).status).toBe(401);
    expect((await call(api, 'POST', '/api/auth/tokens', { body: { name: 'x' } })).status).toBe(401);
    expect((await call(api, 'GET', '/api/auth/me', { token: 'spat_not-a-real-token' })).status).toBe(401);
  });
});

describe('personal access tokens across api processes', () => {
  const pair = useApiPair('api_access_tokens_two');

  it('revoked on one process: refused at once on the other, whose socket of it closes', async () => {
    const jo = await register(pair.a, 'two-sites');
    const created: CreatedAccessToken = await create(pair.a, jo.token, 'laptop');
    // The other process has just checked the token, so it holds it in memory.
    expect(await me(pair.b, created.token)).toBe(200);
    const socket = await connect(pair.b, created.token);
    const closed = closedBy(socket);

    expect((await revoke(pair.a, jo.token, created.id)).status).toBe(204);

    expect(await me(pair.b, created.token)).toBe(401);
    await expect(connect(pair.b, created.token)).rejects.toMatchObject({ data: { code: 'unauthenticated' } });
    expect(await closed).toBe('io server disconnect');
    const listed: AccessTokenList = await list(pair.b, jo.token);
    expect(listed).toEqual({ items: [] });
  });

  it('an account deleted on one process: the other refuses its tokens as soon as Redis tells it', async () => {
    const kim = await register(pair.b, 'deleted-elsewhere');
    const { token } = await create(pair.b, kim.token, 'laptop');
    // The other process has just checked the token, so it holds it (and the account) in memory.
    expect(await me(pair.a, token)).toBe(200);

    expect(
      (await call(pair.b, 'DELETE', '/api/account', { token: kim.token, body: { password: PASSWORD } }))
        .status,
    ).toBe(204);
    expect(await me(pair.b, token)).toBe(401);
    // A deletion announces itself without waiting for the other processes (AccountDeletion), so
    // `a` hears of it a moment later: well within the 5 s its memory would otherwise keep it.
    const deleted = Date.now();
    await until(
      () => me(pair.a, token),
      (status) => status === 401,
    );
    expect(Date.now() - deleted).toBeLessThan(2_500);
  });
});
