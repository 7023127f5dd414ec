import type {
  AdminConversationPage,
  AdminReflogPage,
  Conversation,
  ConversationUsage,
  FsckReport,
  PathResponse,
  ReflogPage,
  TreePage,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createConversation, path, turn } from './support/flows';
import { call, errorOf, register, registerAdmin, startApi, type TestApi } from './support/test-api';

const ADMIN = 'auditor@example.com';

describe('admin (PROTOCOL.md, Admin)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let admin: string;
  let alice: { token: string; id: string };
  let bob: { token: string; id: string };
  let aliceConversation: string;
  let archived: string;
  let tipBeforeRewind: number;

  beforeAll(async () => {
    db = await createTestDatabase('api_admin');
    api = await startApi({ DATABASE_URL: db.url, ADMIN_EMAILS: ADMIN });
    admin = (await registerAdmin(api, db.url, ADMIN, 'Auditor')).token;
    const a = await register(api, 'alice');
    const b = await register(api, 'bob');
    alice = { token: a.token, id: a.user.id };
    bob = { token: b.token, id: b.user.id };
    const created = await createConversation(api, alice.token);
    aliceConversation = created.id;
    await turn(api, alice.token, aliceConversation, 'hello');
    tipBeforeRewind = (await path(api, alice.token, aliceConversation)).length;
    await call(api, 'POST', `/api/conversations/${aliceConversation}/rewind`, {
      token: alice.token,
      body: { to: created.head },
    });
    archived = (await createConversation(api, bob.token)).id;
    await call(api, 'DELETE', `/api/conversations/${archived}`, { token: bob.token });
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('audits the reflog across users, each entry naming its conversation and owner, filtered', async () => {
    const all = await call<AdminReflogPage>(api, 'GET', '/api/admin/reflog?limit=500', { token: admin });
    expect(all.status).toBe(200);
    expect(new Set(all.body.entries.map((e) => e.ownerId))).toEqual(new Set([alice.id, bob.id]));
    const rewinds = await call<AdminReflogPage>(
      api,
      'GET',
      `/api/admin/reflog?userId=${alice.id}&action=rewind`,
      { token: admin },
    );
    expect(rewinds.body.entries).toEqual([
      expect.objectContaining({ action: 'rewind', conversationId: aliceConversation, ownerId: alice.id }),
    ]);
    const one = await call<AdminReflogPage>(api, 'GET', `/api/admin/reflog?conversationId=${archived}`, {
      token: admin,
    });
    expect(one.body.entries.map((e) => e.action)).toEqual(['create']);
    const future = await call<AdminReflogPage>(api, 'GET', '/api/admin/reflog?since=2999-01-01T00:00:00Z', {
      token: admin,
    });
    expect(future.body.entries).toEqual([]);
    const paged = await call<AdminReflogPage>(api, 'GET', '/api/admin/reflog?limit=2', { token: admin });
    const next = await call<AdminReflogPage>(
      api,
      'GET',
      `/api/admin/reflog?limit=2&before=${paged.body.next}`,
      { token: admin },
    );
    expect(next.body.entries[0]!.id).not.toBe(paged.body.entries[0]!.id);
    expect(next.body.entries).toEqual(all.body.entries.slice(2, 4));
  });

  it('names bad filters in a 400', async () => {
    const res = await call<{ error: { details: { field: string }[] } }>(
      api,
      'GET',
      '/api/admin/reflog?action=explode&since=yesterday',
      {
        token: admin,
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d) => d.field).sort()).toEqual(['action', 'since']);
  });

  it("lists everyone's conversations, archived ones included, by user", async () => {
    const all = await call<AdminConversationPage>(api, 'GET', '/api/admin/conversations', { token: admin });
    expect(all.body.items.map((c) => c.id).sort()).toEqual([aliceConversation, archived].sort());
    const bobs = await call<AdminConversationPage>(api, 'GET', `/api/admin/conversations?userId=${bob.id}`, {
      token: admin,
    });
    expect(bobs.body).toEqual({
      items: [expect.objectContaining({ id: archived, ownerId: bob.id })],
      next: null,
    });
  });

  it("reads anyone's path, reflog and tree, archived or not, without moving anything", async () => {
    const owned = await path(api, alice.token, aliceConversation);
    const read = await call<PathResponse>(api, 'GET', `/api/admin/conversations/${aliceConversation}/path`, {
      token: admin,
    });
    expect(read.body.nodes).toEqual(owned);
    const before = await call<PathResponse>(
      api,
      'GET',
      `/api/admin/conversations/${aliceConversation}/path?at=HEAD@{1}`,
      {
        token: admin,
      },
    );
    expect(owned.map((n) => n.kind)).toEqual(['root']);
    expect(before.body.nodes).toHaveLength(tipBeforeRewind);
    const reflog = await call<ReflogPage>(
      api,
      'GET',
      `/api/admin/conversations/${aliceConversation}/reflog`,
      { token: admin },
    );
    expect(reflog.body.entries[0]!.action).toBe('rewind');
    const tree = await call<TreePage>(api, 'GET', `/api/admin/conversations/${aliceConversation}/tree`, {
      token: admin,
    });
    expect(tree.body.nodes.filter((n) => !n.onHead)).toHaveLength(tipBeforeRewind - 1);
    const gone = await call<PathResponse>(api, 'GET', `/api/admin/conversations/${archived}/path`, {
      token: admin,
    });
    expect(gone.body.nodes.map((n) => n.kind)).toEqual(['root']);
    expect(
      (await call(api, 'GET', `/api/admin/conversations/${crypto.randomUUID()}/path`, { token: admin }))
        .status,
    ).toBe(404);
  });

  it('reads any conversation, archived or not, as its owner would see it listed', async () => {
    const seen = await call<Conversation>(api, 'GET', `/api/admin/conversations/${aliceConversation}`, {
      token: admin,
    });
    expect(seen.status).toBe(200);
    expect(seen.body).toMatchObject({
      id: aliceConversation,
      ownerId: alice.id,
      agent: 'tidying',
      model: 'offline',
    });
    const gone = await call<Conversation>(api, 'GET', `/api/admin/conversations/${archived}`, {
      token: admin,
    });
    expect(gone.body).toMatchObject({ id: archived, ownerId: bob.id });
    expect(
      (await call(api, 'GET', `/api/admin/conversations/${aliceConversation}`, { token: alice.token }))
        .status,
    ).toBe(403);
    expect(
      (await call(api, 'GET', `/api/admin/conversations/${crypto.randomUUID()}`, { token: admin })).status,
    ).toBe(404);
  });

  it("sums what a conversation's model calls cost over every branch, the rewound one included", async () => {
    const res = await call<ConversationUsage>(
      api,
      'GET',
      `/api/admin/conversations/${aliceConversation}/usage`,
      {
        token: admin,
      },
    );
    expect(res.status).toBe(200);
    // The turn was rewound away, so HEAD's path has no reply, but its calls were made (and billed).
    const onHead = (await path(api, alice.token, aliceConversation)).filter((n) => n.kind === 'assistant');
    expect(onHead).toEqual([]);
    expect(res.body.calls).toBeGreaterThan(0);
    expect(res.body.inputTokens).toBeGreaterThan(0);
    expect(res.body.outputTokens).toBeGreaterThan(0);
    expect(res.body).toMatchObject({ cacheWriteTokens: 0, cacheReadTokens: 0 });
    // an admin's page, not the owner's
    expect(
      (await call(api, 'GET', `/api/admin/conversations/${aliceConversation}/usage`, { token: alice.token }))
        .status,
    ).toBe(403);
    expect(
      (await call(api, 'GET', `/api/admin/conversations/${crypto.randomUUID()}/usage`, { token: admin }))
        .status,
    ).toBe(404);
  });

  it('fscks a conversation', async () => {
    const res = await call<FsckReport>(api, 'GET', `/api/admin/fsck/${aliceConversation}`, { token: admin });
    expect(res.body).toEqual({ ok: true, checked: expect.any(Number), problems: [] });
    expect(res.body.checked).toBeGreaterThan(3);
    expect(await call(api, 'GET', `/api/admin/fsck/${crypto.randomUUID()}`, { token: admin })).toEqual({
      status: 404,
      body: errorOf('not_found'),
    });
  });
});
