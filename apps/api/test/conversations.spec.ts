import type {
  Conversation,
  ConversationList,
  NodeAndHead,
  NodeResponse,
  StateResponse,
  TreePage,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import {
  answer,
  answerAll,
  ask,
  conversation,
  createConversation,
  firstAnswer,
  kinds,
  path,
  PHOTO,
  say,
  settled,
  turn,
  until,
} from './support/flows';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';

describe('conversations (PROTOCOL.md, Conversations)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_conversations');
    api = await startApi({ DATABASE_URL: db.url });
    ({
      token,
      user: { id: userId },
    } = await register(api, 'owner'));
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('creates a conversation that waits on the chat prompt at its root', async () => {
    const created = await createConversation(api, token, { agent: 'tidying', title: 'The desk' });
    expect(created).toEqual({
      id: expect.any(String),
      agent: 'tidying',
      title: 'The desk',
      ownerId: userId,
      head: expect.stringMatching(/^[0-9a-f]{64}$/),
      status: 'waiting',
      pendingElicit: expect.objectContaining({ elicitId: `chat-${created.head}`, type: 'chat' }),
      pendingElicits: [created.pendingElicit],
      model: 'offline',
      archivedAt: null,
      queued: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await conversation(api, token, created.id)).toEqual(created);
    expect(kinds(await path(api, token, created.id))).toEqual(['root']);
  });

  it('names each bad field of a create in a 400', async () => {
    const res = await call<{ error: { details: { field: string }[] } }>(api, 'POST', '/api/conversations', {
      token,
      body: { agent: 'juggler', title: 7 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d) => d.field).sort()).toEqual(['agent', 'title']);
  });

  it("lists the caller's conversations, newest first", async () => {
    const first = await createConversation(api, token, { agent: 'tidying', title: 'first' });
    const second = await createConversation(api, token, { agent: 'concierge', title: 'second' });
    const res = await call<ConversationList>(api, 'GET', '/api/conversations', { token });
    expect(res.status).toBe(200);
    const ids = res.body.items.map((c) => c.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(res.body.items.every((c) => c.ownerId === userId)).toBe(true);
  });

  it('takes a message as the answer to the chat prompt; the agent answers and waits again', async () => {
    const c = await createConversation(api, token);
    const res = await call<NodeAndHead>(api, 'POST', `/api/conversations/${c.id}/messages`, {
      token,
      body: { text: 'Hello there', expectedHead: c.head },
    });
    expect(res.status).toBe(201);
    expect(res.body.node).toMatchObject({
      kind: 'user',
      parentId: c.head,
      payload: { text: 'Hello there' },
      authorId: userId,
    });
    const after = await answerAll(api, token, c.id);
    const nodes = await path(api, token, c.id);
    expect(nodes[1]).toEqual(res.body.node);
    // `head` is HEAD as stored when the reply was sent: the message, or what the agent said after
    // it in the same write.
    const ids = nodes.map((n) => n.id);
    expect(ids.indexOf(res.body.head)).toBeGreaterThanOrEqual(1);
    expect(kinds(nodes.slice(2))).toContain('assistant');
    expect(after.pendingElicit?.elicitId).toBe(`chat-${after.head}`);
  });

  it('refuses a message with a stale expectedHead with a 409 naming the current HEAD', async () => {
    const c = await createConversation(api, token);
    await turn(api, token, c.id, 'first');
    const res = await call(api, 'POST', `/api/conversations/${c.id}/messages`, {
      token,
      body: { text: 'second', expectedHead: c.head },
    });
    const head = (await conversation(api, token, c.id)).head;
    expect(res).toEqual({
      status: 409,
      body: { error: expect.objectContaining({ code: 'conflict', details: { head } }) },
    });
  });

  it('names bad message fields (missing text, a photo of the wrong type) in a 400', async () => {
    const c = await createConversation(api, token);
    const res = await call<{ error: { details: { field: string }[] } }>(
      api,
      'POST',
      `/api/conversations/${c.id}/messages`,
      {
        token,
        body: { photos: [{ mediaType: 'image/tiff', data: 'AAAA' }] },
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d) => d.field).sort()).toEqual(['photos.0.mediaType', 'text']);
    expect(kinds(await path(api, token, c.id))).toEqual(['root']);
  });

  it('carries photos in the user node as stored blobs, their bytes at /api/blobs (photo-intake.spec.ts)', async () => {
    const c = await createConversation(api, token);
    const res = await call<NodeAndHead>(api, 'POST', `/api/conversations/${c.id}/messages`, {
      token,
      body: { text: 'my desk', photos: [PHOTO] },
    });
    const photo = {
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      mediaType: 'image/png',
      bytes: expect.any(Number),
    };
    expect(res.body.node.payload).toEqual({ text: 'my desk', photos: [{ ...photo, width: 1, height: 1 }] });
    const { sha256 } = (res.body.node.payload as { photos: { sha256: string }[] }).photos[0]!;
    const blob = await fetch(api.url(`/api/blobs/${sha256}`), {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(blob.status).toBe(200);
    expect(blob.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await blob.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  describe('an elicit from a tool', () => {
    it('is answered once: a bad content is a 400 that changes nothing; a second answer returns the first', async () => {
      const c = await createConversation(api, token);
      const q = await ask(api, token, c.id);
      const before = await path(api, token, c.id);
      expect(before.at(-1)).toMatchObject({
        kind: 'elicit',
        payload: { elicitId: q.elicitId, type: q.type },
      });

      const bad = await answer(api, token, c.id, q, { action: 'accept', content: 'not what was asked' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        error: expect.objectContaining({
          code: 'invalid_request',
          details: [expect.objectContaining({ field: 'content' })],
        }),
      });
      expect(await path(api, token, c.id)).toEqual(before);
      expect((await conversation(api, token, c.id)).pendingElicit).toEqual(q);

      // An action its type does not take (the device refused, to a question asking nothing of it).
      const refused = await answer(api, token, c.id, q, { action: 'denied' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: expect.objectContaining({
          code: 'invalid_request',
          details: [expect.objectContaining({ field: 'action' })],
        }),
      });
      expect(await path(api, token, c.id)).toEqual(before);

      const first = await answer(api, token, c.id, q);
      expect(first.status).toBe(200);
      expect(first.body.node).toMatchObject({
        kind: 'response',
        parentId: before.at(-1)!.id,
        authorId: userId,
        payload: { elicitId: q.elicitId, ...firstAnswer(q) },
      });
      const again = await answer(api, token, c.id, q, { action: 'decline' });
      expect(again.status).toBe(200);
      expect(again.body.node).toEqual(first.body.node);

      await answerAll(api, token, c.id);
      const nodes = await path(api, token, c.id);
      expect(nodes.filter((n) => n.kind === 'response' && n.payload['elicitId'] === q.elicitId)).toEqual([
        first.body.node,
      ]);
    });

    it('is a 404 when no such elicit is pending', async () => {
      const c = await createConversation(api, token);
      const res = await call(api, 'POST', `/api/conversations/${c.id}/elicits/nope/response`, {
        token,
        body: { action: 'decline' },
      });
      expect(res).toEqual({ status: 404, body: errorOf('not_found') });
    });

    it("is a 404 for an id that names an object's own machinery, while a question waits", async () => {
      const c = await createConversation(api, token);
      await ask(api, token, c.id);
      for (const id of ['__proto__', 'constructor', 'toString']) {
        const res = await call(api, 'POST', `/api/conversations/${c.id}/elicits/${id}/response`, {
          token,
          body: { action: 'accept', content: { choiceId: 'x' } },
        });
        expect({ id, ...res }).toEqual({ id, status: 404, body: errorOf('not_found') });
      }
    });

    it('is a 400, not a crash, when the answer nests thousands of levels deep', async () => {
      const c = await createConversation(api, token);
      const q = await ask(api, token, c.id);
      const deep = `${'['.repeat(5_000)}1${']'.repeat(5_000)}`;
      const res = await fetch(api.url(`/api/conversations/${c.id}/elicits/${q.elicitId}/response`), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: `{"action":"accept","content":${deep}}`,
      });
      expect(res.status).toBe(400);
      expect((await conversation(api, token, c.id)).pendingElicit).toEqual(q);
    });

    it('is withdrawn by a cancel, which halts the turn with a cancel node and reflog action `cancel`', async () => {
      const c = await createConversation(api, token);
      const q = await ask(api, token, c.id);
      const res = await call<{ head: string }>(api, 'POST', `/api/conversations/${c.id}/cancel`, { token });
      expect(res.status).toBe(200);
      const nodes = await path(api, token, c.id);
      expect(nodes.at(-1)).toMatchObject({ id: res.body.head, kind: 'cancel' });
      const reflog = await call<{ entries: { action: string; newHead: string }[] }>(
        api,
        'GET',
        `/api/conversations/${c.id}/reflog`,
        { token },
      );
      expect(reflog.body.entries[0]).toMatchObject({ action: 'cancel', newHead: res.body.head });
      const after = await settled(api, token, c.id);
      expect(after.pendingElicit?.elicitId).toBe(`chat-${res.body.head}`);
      // An answer to the withdrawn question says it waits no more, and takes nothing.
      const stale = await answer(api, token, c.id, q);
      expect(stale.status).toBe(409);
      expect(JSON.stringify(stale.body)).toMatch(/no longer waiting/);
      expect((await conversation(api, token, c.id)).head).toBe(res.body.head);
    });
  });

  describe('reads', () => {
    let id: string;
    let nodes: Awaited<ReturnType<typeof path>>;

    let reflog: { id: string; index: number; action: string; newHead: string }[];

    beforeAll(async () => {
      id = (await createConversation(api, token)).id;
      await turn(api, token, id, 'one');
      await turn(api, token, id, 'two');
      nodes = await path(api, token, id);
      reflog = (
        await call<{ entries: typeof reflog }>(api, 'GET', `/api/conversations/${id}/reflog?limit=500`, {
          token,
        })
      ).body.entries;
    });

    it('reads the path at every ref form; a bad ref is a 400 on `at`, an unknown one a 404', async () => {
      const [tip, parent] = [nodes.at(-1)!, nodes.at(-2)!];
      expect(kinds(nodes).filter((k) => k === 'user').length).toBeGreaterThanOrEqual(2);
      for (const at of ['HEAD', tip.id, tip.id.slice(0, 7)])
        expect((await path(api, token, id, at)).at(-1)!.id).toBe(tip.id);
      expect((await path(api, token, id, 'HEAD~1')).at(-1)!.id).toBe(parent.id);
      expect((await path(api, token, id, 'HEAD^')).at(-1)!.id).toBe(parent.id);
      // HEAD@{1}: where HEAD was one move ago
      expect((await path(api, token, id, 'HEAD@{1}')).at(-1)!.id).toBe(reflog[1]!.newHead);
      const bad = await call<{ error: { details: { field: string }[] } }>(
        api,
        'GET',
        `/api/conversations/${id}/path?at=nonsense!`,
        { token },
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error.details[0]!.field).toBe('at');
      expect(
        (await call(api, 'GET', `/api/conversations/${id}/path?at=${'0'.repeat(64)}`, { token })).status,
      ).toBe(404);
      expect((await call(api, 'GET', `/api/conversations/${id}/path?at=HEAD~99`, { token })).status).toBe(
        404,
      );
    });

    it("folds the agent's state at a ref", async () => {
      const res = await call<StateResponse>(api, 'GET', `/api/conversations/${id}/state?at=HEAD~1`, {
        token,
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        at: nodes.at(-2)!.id,
        agent: 'tidying',
        state: expect.objectContaining({
          phase: expect.any(String),
          piles: { belongs: expect.any(Array), out: expect.any(Array), unsure: expect.any(Array) },
          itemsProcessed: expect.any(Number),
          anchors: expect.any(Array),
        }),
      });
    });

    it('pages through the whole tree, each node with its children and whether it is on HEAD', async () => {
      const seen: TreePage['nodes'] = [];
      let after: string | null = null;
      do {
        const query: string = after ? `limit=2&after=${encodeURIComponent(after)}` : 'limit=2';
        const page = await call<TreePage>(api, 'GET', `/api/conversations/${id}/tree?${query}`, { token });
        expect(page.status).toBe(200);
        expect(page.body.nodes.length).toBeLessThanOrEqual(2);
        seen.push(...page.body.nodes);
        after = page.body.next;
      } while (after);
      expect(seen.map((n) => n.id)).toEqual(nodes.map((n) => n.id));
      expect(seen.every((n) => n.onHead)).toBe(true);
      expect(seen[0]!.childIds).toEqual([nodes[1]!.id]);
      expect((await call(api, 'GET', `/api/conversations/${id}/tree?limit=0`, { token })).status).toBe(400);
      expect((await call(api, 'GET', `/api/conversations/${id}/tree?after=garbage`, { token })).status).toBe(
        400,
      );
    });

    it('reads one node by id or prefix, with its children; an unknown one is a 404', async () => {
      const res = await call<NodeResponse>(
        api,
        'GET',
        `/api/conversations/${id}/nodes/${nodes[1]!.id.slice(0, 10)}`,
        { token },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...nodes[1], childIds: [nodes[2]!.id] });
      expect(
        (await call(api, 'GET', `/api/conversations/${id}/nodes/${'a'.repeat(64)}`, { token })).status,
      ).toBe(404);
    });

    it('pages the reflog newest first', async () => {
      const all: { index: number; action: string }[] = [];
      let before: string | null = null;
      do {
        const query: string = before ? `limit=3&before=${before}` : 'limit=3';
        const page = await call<{ entries: { index: number; action: string }[]; next: string | null }>(
          api,
          'GET',
          `/api/conversations/${id}/reflog?${query}`,
          { token },
        );
        expect(page.body.entries.length).toBeLessThanOrEqual(3);
        all.push(...page.body.entries);
        before = page.body.next;
      } while (before);
      expect(all.map((e) => e.index)).toEqual(all.map((_, i) => i));
      expect(all).toEqual(reflog.map((e) => expect.objectContaining({ index: e.index, action: e.action })));
      expect(all.at(-1)!.action).toBe('create');
    });
  });

  it("runs the concierge on the owner's demo activities, seeded at registration", async () => {
    const { token: fresh } = await register(api, 'concierge');
    const c = await createConversation(api, fresh, { agent: 'concierge' });
    const asked = await say(api, fresh, c.id, 'review my quarantined items');
    // the first group of the owner's quarantined demo mail, framed as three options
    expect(asked.pendingElicit).toMatchObject({
      type: 'choose',
      payload: { options: [{ id: 'A' }, { id: 'B' }, { id: 'C' }] },
    });
    await answerAll(api, fresh, c.id);
    const state = await call<StateResponse>(api, 'GET', `/api/conversations/${c.id}/state`, { token: fresh });
    expect(state.body).toMatchObject({ agent: 'concierge', state: { mode: expect.any(String) } });
    // another owner's concierge sees its own rows only: the same demo, untouched by the first
    const other = await createConversation(api, token, { agent: 'concierge' });
    expect((await say(api, token, other.id, 'review my quarantined items')).pendingElicit).toEqual(
      expect.objectContaining({ payload: asked.pendingElicit!.payload }),
    );
  });

  it('is a 404 for an id that names no conversation', async () => {
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect(await call(api, 'GET', `/api/conversations/${id}`, { token })).toEqual({
        status: 404,
        body: errorOf('not_found'),
      });
    }
  });

  it('archives: 204, then a 404 for its owner and gone from the list', async () => {
    const c = await createConversation(api, token);
    const res = await call(api, 'DELETE', `/api/conversations/${c.id}`, { token });
    expect(res.status).toBe(204);
    expect((await call(api, 'GET', `/api/conversations/${c.id}`, { token })).status).toBe(404);
    expect((await call(api, 'GET', `/api/conversations/${c.id}/path`, { token })).status).toBe(404);
    expect((await call(api, 'DELETE', `/api/conversations/${c.id}`, { token })).status).toBe(404);
    const list = await call<ConversationList>(api, 'GET', '/api/conversations', { token });
    expect(list.body.items.map((i) => i.id)).not.toContain(c.id);
  });

  it('forks the path to a ref into a new conversation of the caller', async () => {
    const c = await createConversation(api, token, { agent: 'tidying', title: 'original' });
    await turn(api, token, c.id, 'one');
    const source = await path(api, token, c.id);
    const res = await call<Conversation>(api, 'POST', `/api/conversations/${c.id}/fork`, {
      token,
      body: { at: 'HEAD~1', title: 'copy' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ agent: 'tidying', title: 'copy', ownerId: userId });
    expect(res.body.id).not.toBe(c.id);
    // at the copy of `at`: a fork inside a turn goes on with that turn, as a restart would
    const copied = await path(api, token, res.body.id, res.body.head);
    expect(copied.slice(1).map((n) => [n.kind, n.payload])).toEqual(
      source.slice(1, -1).map((n) => [n.kind, n.payload]),
    );
    await until(
      () => conversation(api, token, res.body.id),
      (f) => f.status !== 'running',
    );
  });

  it('names an untitled fork after where it was forked from, so two forks tell apart', async () => {
    const c = await createConversation(api, token, { agent: 'tidying', title: 'The desk' });
    await turn(api, token, c.id, 'the lamp');
    const atLamp = (await conversation(api, token, c.id)).head;
    await turn(api, token, c.id, 'a coffee mug');
    const fork = (at: string) =>
      call<Conversation>(api, 'POST', `/api/conversations/${c.id}/fork`, { token, body: { at } });

    const early = await fork(atLamp);
    const late = await fork('HEAD');

    expect(early.body.title).toBe('The desk · from "the lamp"');
    expect(late.body.title).toBe('The desk · from "a coffee mug"');
    for (const f of [early, late])
      await until(
        () => conversation(api, token, f.body.id),
        (now) => now.status !== 'running',
      );
  });
});
