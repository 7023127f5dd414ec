import type { StateResponse } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createConversation, path, settled, turn } from './support/flows';
import { call, client, errorOf, register, registerAdmin, startApi, type TestApi } from './support/test-api';
import { connect, record, request } from './support/test-socket';

const ADMIN = 'archive-auditor@example.com';

/**
 * DELETE /api/conversations/:id archives (PROTOCOL.md): nothing is lost, the owner can find an
 * archived conversation and bring it back, and everyone who still sees it (the admin) sees it
 * marked. Through the typed client where the contract is asserted, raw calls for the edges.
 */
describe('archive and unarchive', () => {
  let db: TestDatabase;
  let api: TestApi;
  let admin: string;
  let alice: { token: string; id: string };
  let bob: { token: string; id: string };

  beforeAll(async () => {
    db = await createTestDatabase('api_archive');
    api = await startApi({ DATABASE_URL: db.url, ADMIN_EMAILS: ADMIN });
    admin = (await registerAdmin(api, db.url, ADMIN, 'Auditor')).token;
    const a = await register(api, 'alice');
    const b = await register(api, 'bob');
    alice = { token: a.token, id: a.user.id };
    bob = { token: b.token, id: b.user.id };
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('archive leaves the default list for the archived one, and unarchive brings it back whole', async () => {
    const owner = client(api, alice.token);
    const kept = await createConversation(api, alice.token, { agent: 'tidying', title: 'The desk' });
    const garage = await createConversation(api, alice.token, { agent: 'tidying', title: 'The garage' });
    await turn(api, alice.token, garage.id, 'the garage shelves');
    const before = await path(api, alice.token, garage.id);

    expect(
      (await call(api, 'DELETE', `/api/conversations/${garage.id}`, { token: alice.token })).status,
    ).toBe(204);
    const list = await owner.listConversations({});
    expect(list.items.map((c) => c.id)).toEqual([kept.id]);
    expect(list.items[0]?.archivedAt).toBeNull();

    const archived = await owner.listConversations({ query: { archived: true } });
    expect(archived.items.map((c) => [c.id, c.title])).toEqual([[garage.id, 'The garage']]);
    expect(archived.items[0]?.archivedAt).toEqual(expect.any(String));
    expect(archived.next).toBeNull();
    // `q` narrows the archived list as it does the other.
    expect((await owner.listConversations({ query: { archived: true, q: 'desk' } })).items).toEqual([]);
    // `archived=false` is the default list.
    expect((await owner.listConversations({ query: { archived: false } })).items.map((c) => c.id)).toEqual([
      kept.id,
    ]);
    // While archived, its owner cannot open it.
    expect((await call(api, 'GET', `/api/conversations/${garage.id}`, { token: alice.token })).status).toBe(
      404,
    );

    const back = await owner.unarchiveConversation({ params: { id: garage.id } });
    expect(back).toMatchObject({ id: garage.id, title: 'The garage', archivedAt: null });
    expect((await owner.listConversations({})).items.map((c) => c.id).sort()).toEqual(
      [kept.id, garage.id].sort(),
    );
    expect((await owner.listConversations({ query: { archived: true } })).items).toEqual([]);
    // Nothing was lost: the same path, and the conversation goes on.
    expect((await path(api, alice.token, garage.id)).map((n) => n.id)).toEqual(before.map((n) => n.id));
    // As a person would: open it (its agent is rebuilt from the tree and asks again), then write.
    await settled(api, alice.token, garage.id);
    await turn(api, alice.token, garage.id, 'and the bikes');
    expect((await path(api, alice.token, garage.id)).length).toBeGreaterThan(before.length);

    // Unarchiving one that is in the list changes nothing.
    expect(await owner.unarchiveConversation({ params: { id: kept.id } })).toMatchObject({
      id: kept.id,
      archivedAt: null,
    });
  }, 90_000);

  it("refuses a joined tab's answer and message once the conversation is archived, and writes nothing", async () => {
    const garage = await createConversation(api, alice.token, { agent: 'tidying', title: 'The shed' });
    const tab = await connect(api, alice.token);
    try {
      const elicits = record(tab, 'elicit');
      const joined = await request(tab, 'conversation:join', { conversationId: garage.id });
      expect(joined.ok).toBe(true);
      const prompt = await elicits.next((e) => e.conversationId === garage.id);
      const before = await path(api, alice.token, garage.id);

      // Archived elsewhere (another tab, another device) while this tab stays joined.
      expect(
        (await call(api, 'DELETE', `/api/conversations/${garage.id}`, { token: alice.token })).status,
      ).toBe(204);
      const answer = await request(tab, 'elicit:response', {
        conversationId: garage.id,
        elicitId: prompt.elicitId,
        action: 'accept',
        content: { text: 'the lawnmower' },
      });
      const message = await request(tab, 'message:send', { conversationId: garage.id, text: 'the rake' });
      expect(answer).toEqual({ ok: false, ...errorOf('not_found') });
      expect(message).toEqual({ ok: false, ...errorOf('not_found') });

      await client(api, alice.token).unarchiveConversation({ params: { id: garage.id } });
      expect((await path(api, alice.token, garage.id)).map((n) => n.id)).toEqual(before.map((n) => n.id));
    } finally {
      tab.close();
    }
  }, 60_000);

  it("pages the archived list, and refuses a cursor that is not one of the caller's archived ones", async () => {
    const owner = client(api, bob.token);
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three']) {
      const made = await createConversation(api, bob.token, { agent: 'tidying', title });
      await call(api, 'DELETE', `/api/conversations/${made.id}`, { token: bob.token });
      ids.push(made.id);
    }
    const first = await owner.listConversations({ query: { archived: true, limit: 2 } });
    // Most recently archived first.
    expect(first.items.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.next).toBe(ids[1]);
    const second = await owner.listConversations({
      query: { archived: true, limit: 2, before: first.next! },
    });
    expect(second.items.map((c) => c.id)).toEqual([ids[0]]);
    expect(second.next).toBeNull();

    const live = await createConversation(api, bob.token);
    const bad = await call(api, 'GET', `/api/conversations?archived=true&before=${live.id}`, {
      token: bob.token,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorOf('invalid_request'));
    const odd = await call(api, 'GET', '/api/conversations?archived=maybe', { token: bob.token });
    expect(odd.status).toBe(400);
    expect(odd.body).toMatchObject({
      error: { code: 'invalid_request', details: [expect.objectContaining({ field: 'archived' })] },
    });
    for (const id of ids) await owner.unarchiveConversation({ params: { id } });
  }, 60_000);

  it("answers 404 for another user's conversation, archived or not, and lists none of theirs", async () => {
    const theirs = await createConversation(api, alice.token, { agent: 'tidying', title: "Alice's attic" });
    const mine = await createConversation(api, bob.token, { agent: 'tidying', title: "Bob's attic" });
    for (const id of [theirs.id, mine.id]) {
      await call(api, 'DELETE', `/api/conversations/${id}`, {
        token: id === theirs.id ? alice.token : bob.token,
      });
    }
    const foreign = await call(api, 'POST', `/api/conversations/${theirs.id}/unarchive`, {
      token: bob.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(errorOf('not_found'));
    // And the same for an id that does not exist, or is not an id at all.
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const missing = await call(api, 'POST', `/api/conversations/${id}/unarchive`, { token: bob.token });
      expect([missing.status, missing.body]).toEqual([404, errorOf('not_found')]);
    }
    // It is still Alice's and still archived.
    const bobs = await client(api, bob.token).listConversations({ query: { archived: true } });
    expect(bobs.items.map((c) => c.id)).toEqual([mine.id]);
    const alices = await client(api, alice.token).listConversations({ query: { archived: true } });
    expect(alices.items.map((c) => c.id)).toContain(theirs.id);
    expect((await call(api, 'POST', `/api/conversations/${theirs.id}/unarchive`)).status).toBe(401);
  }, 60_000);

  it("shows the admin archived conversations marked, and reads a tidying conversation's state as its owner does", async () => {
    const tidying = await createConversation(api, alice.token, { agent: 'tidying', title: 'The shed' });
    await turn(api, alice.token, tidying.id, 'the shed: tools, paint tins and a broken chair');
    const shelved = await createConversation(api, alice.token, { agent: 'tidying', title: 'Shelved' });
    await call(api, 'DELETE', `/api/conversations/${shelved.id}`, { token: alice.token });

    const auditor = client(api, admin);
    const page = await auditor.adminConversations({ query: { userId: alice.id, limit: 200 } });
    const byId = new Map(page.items.map((c) => [c.id, c]));
    expect(byId.get(shelved.id)?.archivedAt).toEqual(expect.any(String));
    expect(byId.get(tidying.id)?.archivedAt).toBeNull();
    expect((await auditor.adminConversation({ params: { id: shelved.id } })).archivedAt).toEqual(
      expect.any(String),
    );

    const owners = (
      await call<StateResponse>(api, 'GET', `/api/conversations/${tidying.id}/state`, {
        token: alice.token,
      })
    ).body;
    const seen = await auditor.adminState({ params: { id: tidying.id } });
    expect(seen).toEqual(owners);
    expect(seen.agent).toBe('tidying');
    expect(seen.state).toMatchObject({ piles: expect.any(Object), phase: expect.any(String) });
    // At any ref, and of an archived conversation too; nothing moved.
    const head = (await path(api, alice.token, tidying.id)).at(-1)!.id;
    expect((await auditor.adminState({ params: { id: tidying.id }, query: { at: 'HEAD~1' } })).at).not.toBe(
      head,
    );
    expect((await auditor.adminState({ params: { id: shelved.id } })).agent).toBe('tidying');
    expect((await path(api, alice.token, tidying.id)).at(-1)!.id).toBe(head);

    // Admins only; and a 404 for no such conversation.
    const refused = await call(api, 'GET', `/api/admin/conversations/${tidying.id}/state`, {
      token: alice.token,
    });
    expect([refused.status, refused.body]).toEqual([403, errorOf('forbidden')]);
    const none = await call(
      api,
      'GET',
      '/api/admin/conversations/00000000-0000-4000-8000-000000000000/state',
      {
        token: admin,
      },
    );
    expect([none.status, none.body]).toEqual([404, errorOf('not_found')]);
  }, 90_000);
});
