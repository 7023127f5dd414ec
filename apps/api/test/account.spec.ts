import { randomBytes, randomUUID } from 'node:crypto';
import {
  ExportedAccountSchema,
  ExportedConciergeSchema,
  ExportedConversationSchema,
  type TreeListingNode,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PgSqlClient, TreeStore } from '@sweatpants/tree-store';
import { Client } from 'pg';
import * as z from 'zod';
import { ConversationActors } from '../src/conversations/conversation-actors';
import { answerAll, ask, createConversation, OPENING, path, settled, turn } from './support/flows';
import { readZip } from './support/read-zip';
import { useApiPair } from './support/api-pair';
import { call, client, errorOf, register, registerAdmin, startApi, type TestApi } from './support/test-api';
import { connect, request, type ClientSocket } from './support/test-socket';

const PASSWORD = 'correct horse battery';
const ADMIN = 'steward@example.com';
/** Ids a person should not have to read in a transcript: node hashes and uuids. */
const ID = /\b[0-9a-f]{64}\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/;

/** A pg client acting as the api does (its role); a test drives its transactions by hand. */
async function appClient(url: string): Promise<Client> {
  const sql = new Client({ connectionString: url });
  await sql.connect();
  await sql.query('SET ROLE sweatpants_app');
  return sql;
}

/** Rows in every table of the database, by table: a deletion is checked against all of them. */
async function everyTable(url: string): Promise<Record<string, number>> {
  const sql = new Client({ connectionString: url });
  await sql.connect();
  try {
    const { rows } = await sql.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of rows) {
      const result = await sql.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${sql.escapeIdentifier(name)}`,
      );
      counts[name] = Number(result.rows[0]!.n);
    }
    return counts;
  } finally {
    await sql.end();
  }
}

/** Rows per table that belong to `userId`: their account, conversations and all in them, concierge data. */
async function rowsOf(url: string, userId: string): Promise<Record<string, number>> {
  const sql = new Client({ connectionString: url });
  await sql.connect();
  try {
    const count = async (query: string) => Number((await sql.query(query, [userId])).rows[0].n);
    const mine = `SELECT id FROM conversations WHERE owner_id = $1`;
    return {
      users: await count(`SELECT count(*) AS n FROM users WHERE id::text = $1`),
      conversations: await count(`SELECT count(*) AS n FROM conversations WHERE owner_id = $1`),
      nodes: await count(`SELECT count(*) AS n FROM nodes WHERE conversation_id IN (${mine})`),
      refs: await count(`SELECT count(*) AS n FROM refs WHERE conversation_id IN (${mine})`),
      reflog: await count(`SELECT count(*) AS n FROM reflog WHERE conversation_id IN (${mine})`),
      segments: await count(`SELECT count(*) AS n FROM segments WHERE conversation_id IN (${mine})`),
      state_snapshots: await count(
        `SELECT count(*) AS n FROM state_snapshots s JOIN nodes n ON n.id = s.node_id
         WHERE n.conversation_id IN (${mine})`,
      ),
      node_blobs: await count(`SELECT count(*) AS n FROM node_blobs WHERE conversation_id IN (${mine})`),
      concierge_activities: await count(`SELECT count(*) AS n FROM concierge_activities WHERE owner_id = $1`),
      concierge_people: await count(`SELECT count(*) AS n FROM concierge_people WHERE owner_id = $1`),
      concierge_activity_changes: await count(
        `SELECT count(*) AS n FROM concierge_activity_changes WHERE owner_id = $1`,
      ),
      refresh_tokens: await count(`SELECT count(*) AS n FROM refresh_tokens WHERE user_id::text = $1`),
      email_tokens: await count(`SELECT count(*) AS n FROM email_tokens WHERE user_id::text = $1`),
    };
  } finally {
    await sql.end();
  }
}

const NONE = Object.freeze({
  users: 0,
  conversations: 0,
  nodes: 0,
  refs: 0,
  reflog: 0,
  segments: 0,
  state_snapshots: 0,
  node_blobs: 0,
  concierge_activities: 0,
  concierge_people: 0,
  concierge_activity_changes: 0,
  refresh_tokens: 0,
  email_tokens: 0,
});

/** How each table's row count moved from `before` to `after`, for every table of either. */
function moved(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  const tables = new Set([...Object.keys(before), ...Object.keys(after)]);
  return Object.fromEntries([...tables].sort().map((t) => [t, (after[t] ?? 0) - (before[t] ?? 0)]));
}

/** `moved` as it should be: these changes and nothing else, every other table as it was. */
function only(tables: readonly string[], changes: Record<string, number>): Record<string, number> {
  return Object.fromEntries([...tables].sort().map((t) => [t, changes[t] ?? 0]));
}

/** Waits until the backend `pid` waits on a lock: the state a test needs, not a time. */
async function blockedOnLock(sql: Client, pid: number): Promise<void> {
  for (;;) {
    const { rows } = await sql.query<{ wait: string | null }>(
      `SELECT wait_event_type AS wait FROM pg_stat_activity WHERE pid = $1`,
      [pid],
    );
    if (rows[0]?.wait === 'Lock') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('accounts that can leave (PROTOCOL.md, Account)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let alice: { token: string; id: string; email: string };
  let bob: { token: string; id: string; email: string };
  let aliceConversation: string;
  let aliceArchived: string;
  let bobConversation: string;
  let aliceNodes: string[];
  const sockets: ClientSocket[] = [];

  async function open(token: string): Promise<ClientSocket> {
    const socket = await connect(api, token);
    sockets.push(socket);
    return socket;
  }

  async function exportOf(token: string): Promise<{ res: Response; entries: Map<string, Buffer> }> {
    const res = await fetch(api.url('/api/account/export'), {
      headers: { authorization: `Bearer ${token}` },
    });
    return { res, entries: readZip(Buffer.from(await res.arrayBuffer())) };
  }

  beforeAll(async () => {
    db = await createTestDatabase('api_account');
    api = await startApi({ DATABASE_URL: db.url, ADMIN_EMAILS: ADMIN, GC_EVERY_MINUTES: 'off' });
    const a = await register(api, 'alice');
    const b = await register(api, 'bob');
    alice = { token: a.token, id: a.user.id, email: a.user.email };
    bob = { token: b.token, id: b.user.id, email: b.user.email };
    // Alice: a photo, a question answered, then a discarded branch.
    aliceConversation = (await createConversation(api, alice.token)).id;
    await ask(api, alice.token, aliceConversation);
    await answerAll(api, alice.token, aliceConversation);
    await turn(api, alice.token, aliceConversation, 'the stack of papers');
    const first = await path(api, alice.token, aliceConversation);
    await turn(api, alice.token, aliceConversation, 'the lamp');
    await call(api, 'POST', `/api/conversations/${aliceConversation}/rewind`, {
      token: alice.token,
      body: { to: first.at(-1)!.id },
    });
    await turn(api, alice.token, aliceConversation, 'the mugs instead');
    const tree = await call<{ nodes: TreeListingNode[] }>(
      api,
      'GET',
      `/api/conversations/${aliceConversation}/tree?limit=500`,
      { token: alice.token },
    );
    aliceNodes = tree.body.nodes.map((n) => n.id);
    // And one she archived: still hers until her account goes.
    aliceArchived = (await createConversation(api, alice.token, { agent: 'tidying', title: 'The garage' }))
      .id;
    await turn(api, alice.token, aliceArchived, 'the garage shelves');
    expect(
      (await call(api, 'DELETE', `/api/conversations/${aliceArchived}`, { token: alice.token })).status,
    ).toBe(204);
    // Bob, mid-session in a conversation of his own.
    bobConversation = (await createConversation(api, bob.token)).id;
    await turn(api, bob.token, bobConversation, 'my wardrobe');
  }, 90_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await api?.close();
    await db?.drop();
  });

  it('exports everything the caller has as a valid zip: tree, reflog, photos, concierge data and a transcript in words', async () => {
    const { res, entries } = await exportOf(alice.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="sweatpants-export-\d{4}-\d\d-\d\d\.zip"$/,
    );
    const names = [...entries.keys()];
    const dirOf = (id: string) =>
      names
        .find((n) => n.startsWith(`conversations/${id}-`))!
        .split('/')
        .slice(0, 2)
        .join('/');
    const dir = dirOf(aliceConversation);
    const archivedDir = dirOf(aliceArchived);
    for (const folder of [dir, archivedDir]) {
      expect(names).toEqual(
        expect.arrayContaining(
          ['conversation.json', 'tree.json', 'reflog.json', 'transcript.md'].map((f) => `${folder}/${f}`),
        ),
      );
    }
    expect(names.filter((n) => n.endsWith('/conversation.json'))).toHaveLength(2);
    expect(names).toEqual(expect.arrayContaining(['README.md', 'account.json', 'concierge.json']));
    const readme = entries.get('README.md')!.toString();
    for (const file of [
      'account.json',
      'transcript.md',
      'tree.json',
      'reflog.json',
      'photos/',
      'concierge.json',
    ]) {
      expect(readme).toContain(file);
    }
    expect(ExportedAccountSchema.strict().parse(JSON.parse(entries.get('account.json')!.toString()))).toEqual(
      {
        id: alice.id,
        email: alice.email,
        displayName: 'alice',
        createdAt: expect.any(String),
      },
    );

    // Every node, the discarded branch's included; every move of HEAD.
    const tree = JSON.parse(entries.get(`${dir}/tree.json`)!.toString()) as TreeListingNode[];
    expect(tree.map((n) => n.id).sort()).toEqual([...aliceNodes].sort());
    expect(tree.some((n) => !n.onHead)).toBe(true);
    const reflog = JSON.parse(entries.get(`${dir}/reflog.json`)!.toString()) as { action: string }[];
    expect(reflog.map((e) => e.action)).toEqual(expect.arrayContaining(['create', 'append', 'rewind']));
    const meta = ExportedConversationSchema.parse(
      JSON.parse(entries.get(`${dir}/conversation.json`)!.toString()),
    );
    const head = (await path(api, alice.token, aliceConversation)).at(-1)!.id;
    expect(meta).toMatchObject({ id: aliceConversation, archived: false, archivedAt: null, head });

    // The photo once, as a file the transcript shows.
    const photos = names.filter((n) => n.startsWith('photos/'));
    expect(photos).toHaveLength(1);
    expect(photos[0]).toMatch(/^photos\/[0-9a-f]{64}\.png$/);
    const words = entries.get(`${dir}/transcript.md`)!.toString();
    expect(words).toContain(`**You**: ${OPENING}`);
    expect(words).toContain(`![Photo 1](../../${photos[0]})`);
    expect(words).toMatch(/\*\*The coach asked\*\*: .+\n\n\*\*You answered\*\*: \w/);
    expect(words).toContain('**You**: the mugs instead');
    expect(words).not.toContain('**You**: the lamp'); // the discarded branch is in tree.json, not the transcript
    expect(words).not.toContain('[Continue as'); // what the agent writes to itself is not hers
    expect(words.replace(/photos\/[0-9a-f]{64}/g, '')).not.toMatch(ID);
    expect(words).not.toMatch(/[{}]/);

    // The conversation she archived, marked so.
    const archived = ExportedConversationSchema.parse(
      JSON.parse(entries.get(`${archivedDir}/conversation.json`)!.toString()),
    );
    expect(archived).toMatchObject({ id: aliceArchived, title: 'The garage', archived: true });
    expect(archived.archivedAt).toEqual(expect.any(String));
    const archivedWords = entries.get(`${archivedDir}/transcript.md`)!.toString();
    // Its heading says it is archived, as the web list now calls what DELETE does.
    expect(archivedWords.split('\n')[0]).toBe('# The garage (archived)');
    expect(archivedWords).toContain('You archived this conversation on');
    expect(archivedWords).not.toContain('deleted');
    expect(archivedWords).toContain('**You**: the garage shelves');
    expect(words.split('\n')[0]).not.toContain('archived');

    // The index at the top names every conversation, its folder, and which are archived.
    const index = z
      .array(ExportedConversationSchema.extend({ folder: z.string() }))
      .parse(JSON.parse(entries.get('conversations.json')!.toString()));
    expect(index.map((c) => [c.id, c.folder, c.archived])).toEqual(
      expect.arrayContaining([
        [aliceConversation, dir, false],
        [aliceArchived, archivedDir, true],
      ]),
    );
    expect(index).toHaveLength(2);
    expect(index.find((c) => c.id === aliceArchived)?.archivedAt).toBe(archived.archivedAt);
    expect(readme).toContain('conversations.json');
    expect(readme).toContain('archived');
    expect(readme).not.toContain('deleted from your list');

    // What the concierge keeps for her, in the api's own shapes.
    const concierge = ExportedConciergeSchema.parse(JSON.parse(entries.get('concierge.json')!.toString()));
    expect(concierge.activities.length).toBeGreaterThan(0);
    expect(concierge.people.length).toBeGreaterThan(0);

    // Nothing of Bob's.
    const everything = [...entries.values()].map((b) => b.toString('latin1')).join('\n');
    for (const his of [bob.id, bob.email, bobConversation, 'my wardrobe'])
      expect(everything).not.toContain(his);
  });

  it("holds nothing of anyone else's in another person's export", async () => {
    const { res, entries } = await exportOf(bob.token);
    expect(res.status).toBe(200);
    expect([...entries.keys()].filter((n) => n.endsWith('/conversation.json'))).toEqual([
      expect.stringContaining(bobConversation),
    ]);
    const everything = [...entries.values()].map((b) => b.toString('latin1')).join('\n');
    for (const hers of [
      alice.id,
      alice.email,
      aliceConversation,
      aliceArchived,
      'the mugs instead',
      'garage',
    ]) {
      expect(everything).not.toContain(hers);
    }
    expect([...entries.keys()].some((n) => n.startsWith('photos/'))).toBe(false);
  });

  it('refuses a deletion without the right password, and nothing changes', async () => {
    const before = await everyTable(db.url);
    const wrong = await call(api, 'DELETE', '/api/account', {
      token: alice.token,
      body: { password: 'not it' },
    });
    expect(wrong).toEqual({ status: 400, body: errorOf('invalid_request') });
    expect(wrong.body).toMatchObject({ error: { details: [{ field: 'password' }] } });
    const missing = await call(api, 'DELETE', '/api/account', { token: alice.token, body: {} });
    expect(missing.body).toMatchObject({
      error: { code: 'invalid_request', details: [{ field: 'password' }] },
    });
    // An account with a password confirms with it, whenever it signed in.
    await expect(client(api, alice.token).accountDeletion()).resolves.toEqual({
      confirmWith: 'password',
      recentUntil: null,
    });
    expect((await call(api, 'DELETE', '/api/account', { body: { password: PASSWORD } })).status).toBe(401);
    expect(await everyTable(db.url)).toEqual(before);
    expect((await call(api, 'GET', '/api/auth/me', { token: alice.token })).status).toBe(200);
  });

  it('deletes the account and everything it owns, closes its sockets, and leaves everyone else talking on', async () => {
    // Both are connected, each in a conversation of their own.
    const hers = await open(alice.token);
    expect(await request(hers, 'conversation:join', { conversationId: aliceConversation })).toMatchObject({
      ok: true,
    });
    const herSocketClosed = new Promise((resolve) => hers.once('disconnect', resolve));
    const his = await open(bob.token);
    expect(await request(his, 'conversation:join', { conversationId: bobConversation })).toMatchObject({
      ok: true,
    });

    const tablesBefore = await everyTable(db.url);
    const aliceBefore = await rowsOf(db.url, alice.id);
    expect(aliceBefore.nodes).toBeGreaterThan(aliceNodes.length); // the archived conversation's too
    const bobBefore = await rowsOf(db.url, bob.id);

    // Bob is mid-session as it happens.
    const [deleted] = await Promise.all([
      call(api, 'DELETE', '/api/account', { token: alice.token, body: { password: PASSWORD } }),
      turn(api, bob.token, bobConversation, 'and the shoe rack'),
    ]);
    expect(deleted.status).toBe(204);
    await herSocketClosed;

    // Exactly her rows went: every table moved by what was hers, plus Bob's turn, plus one audit row.
    const tablesAfter = await everyTable(db.url);
    const bobAfter = await rowsOf(db.url, bob.id);
    expect(bobAfter.nodes).toBeGreaterThan(bobBefore.nodes!); // his turn landed
    expect(await rowsOf(db.url, alice.id)).toEqual(NONE);
    const expected: Record<string, number> = { account_deletions: 1 };
    for (const table of Object.keys(NONE)) {
      expected[table] = bobAfter[table]! - bobBefore[table]! - aliceBefore[table]!;
    }
    // Her one photo goes with her at once: no one else's node names it.
    expected['blobs'] = -1;
    expect(moved(tablesBefore, tablesAfter)).toEqual(only(Object.keys(tablesBefore), expected));

    // Her token is refused, over HTTP and at the socket handshake; she cannot sign in.
    expect((await call(api, 'GET', '/api/auth/me', { token: alice.token })).status).toBe(401);
    expect((await call(api, 'GET', '/api/account/export', { token: alice.token })).status).toBe(401);
    await expect(connect(api, alice.token)).rejects.toThrow();
    expect(
      (await call(api, 'POST', '/api/auth/login', { body: { email: alice.email, password: PASSWORD } }))
        .status,
    ).toBe(401);

    // His socket stayed, and his conversation goes on.
    expect(his.connected).toBe(true);
    const sent = await request(his, 'message:send', {
      conversationId: bobConversation,
      text: 'the coat hooks',
    });
    expect(sent).toMatchObject({ ok: true, node: { kind: 'user' } });
    await settled(api, bob.token, bobConversation);

    const sql = PgSqlClient.connect(db.url);
    try {
      const store = new TreeStore(sql);
      // Every conversation left is whole.
      const left = await sql.query<{ id: string }>(`SELECT id FROM conversations`);
      expect(left.length).toBeGreaterThan(0);
      for (const { id } of left) expect(await store.fsck(id)).toMatchObject({ ok: true, problems: [] });
      // The audit row: who, when, by whom, how much; nothing of what she said or who she was.
      const audit = await sql.query<Record<string, unknown>>(
        `SELECT * FROM account_deletions WHERE user_id = $1`,
        [alice.id],
      );
      expect(audit).toEqual([
        {
          id: expect.any(String),
          user_id: alice.id,
          deleted_by: 'self',
          deleted_at: expect.any(Date),
          conversations: 2,
          nodes: aliceBefore.nodes,
        },
      ]);
    } finally {
      await sql.close();
    }
  });

  it('lets an admin delete any account, and no one else', async () => {
    const admin = await registerAdmin(api, db.url, ADMIN, 'Steward');
    const carol = await register(api, 'carol');
    const hers = (await createConversation(api, carol.token)).id;
    await turn(api, carol.token, hers, 'my bookshelf');
    expect(await call(api, 'DELETE', `/api/admin/users/${carol.user.id}`, { token: bob.token })).toEqual({
      status: 403,
      body: errorOf('forbidden'),
    });
    expect(await call(api, 'DELETE', `/api/admin/users/${carol.user.id}`, { token: carol.token })).toEqual({
      status: 403,
      body: errorOf('forbidden'),
    });

    const tablesBefore = await everyTable(db.url);
    const carolBefore = await rowsOf(db.url, carol.user.id);
    expect(
      (await call(api, 'DELETE', `/api/admin/users/${carol.user.id}`, { token: admin.token })).status,
    ).toBe(204);
    const expected: Record<string, number> = { account_deletions: 1 };
    for (const table of Object.keys(NONE)) expected[table] = 0 - carolBefore[table]!;
    expect(moved(tablesBefore, await everyTable(db.url))).toEqual(only(Object.keys(tablesBefore), expected));
    expect((await call(api, 'GET', '/api/auth/me', { token: carol.token })).status).toBe(401);

    const sql = PgSqlClient.connect(db.url);
    try {
      expect(
        await sql.query(`SELECT deleted_by, conversations, nodes FROM account_deletions WHERE user_id = $1`, [
          carol.user.id,
        ]),
      ).toEqual([{ deleted_by: admin.user.id, conversations: 1, nodes: carolBefore.nodes }]);
    } finally {
      await sql.close();
    }
    expect(
      (await call(api, 'DELETE', `/api/admin/users/${carol.user.id}`, { token: admin.token })).status,
    ).toBe(404);
    expect(
      (await call(api, 'DELETE', `/api/admin/users/${randomUUID()}`, { token: admin.token })).status,
    ).toBe(404);
    expect((await call(api, 'DELETE', '/api/admin/users/not-a-user', { token: admin.token })).status).toBe(
      404,
    );
    expect((await call(api, 'GET', '/api/auth/me', { token: bob.token })).status).toBe(200);
  });

  describe('purge_account, against writes racing it', () => {
    /** A registered account with one conversation, its agent waiting on the person. */
    async function someone(name: string) {
      const { token, user } = await register(api, name);
      const conversation = (await createConversation(api, token)).id;
      // Its agent has written what it writes on opening, and waits.
      await settled(api, token, conversation);
      return { id: user.id, conversation };
    }

    async function purge(sql: Client, userId: string) {
      return (await sql.query(`SELECT * FROM purge_account($1, 'self')`, [userId])).rows[0] as
        { conversations: number; nodes: number } | undefined;
    }

    const appendNote = (sql: Client, conversationId: string, text: string) =>
      sql.query<{ status: string }>(
        `SELECT status FROM tree_append(p_conversation => $1, p_ref => 'HEAD', p_expected => NULL,
           p_parent => NULL, p_ids => ARRAY[$2], p_kinds => ARRAY['notify'], p_payloads => ARRAY[$3::jsonb],
           p_authors => ARRAY['agent:tidying'], p_times => ARRAY[now()], p_action => 'append',
           p_actor => 'agent:tidying', p_message => '')`,
        [conversationId, randomBytes(32).toString('hex'), JSON.stringify({ message: text })],
      );

    const createFor = (sql: Client, ownerId: string) =>
      sql.query(
        `SELECT * FROM tree_create(p_conversation => $1, p_owner => $2, p_agent => 'tidying', p_title => '',
           p_root => $3, p_payload => '{}'::jsonb, p_author => $2, p_created_at => now(), p_actor => $2,
           p_message => '')`,
        [randomUUID(), ownerId, randomBytes(32).toString('hex')],
      );

    let writer: Client;
    let purger: Client;
    let watcher: Client;
    let purgerPid: number;

    beforeEach(async () => {
      writer = await appClient(db.url);
      purger = await appClient(db.url);
      // The superuser: pg_stat_activity shows another session's waits only to it.
      watcher = new Client({ connectionString: db.url });
      await watcher.connect();
      purgerPid = (await purger.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    });
    afterEach(async () => {
      await Promise.all([writer.end(), purger.end(), watcher.end()]);
    });

    it('takes a node appended while it starts with the rest, and lets none land after', async () => {
      const dave = await someone('dave');
      const before = await rowsOf(db.url, dave.id);
      // A writer mid-append holds the conversation's ref, as every HEAD move does.
      await writer.query('BEGIN');
      expect((await appendNote(writer, dave.conversation, 'in flight')).rows).toEqual([{ status: 'ok' }]);
      const purged = purge(purger, dave.id);
      await blockedOnLock(watcher, purgerPid);
      await writer.query('COMMIT');
      expect(await purged).toEqual({ conversations: 1, nodes: before.nodes! + 1 });
      expect(await rowsOf(db.url, dave.id)).toEqual(NONE);
      // A runner that did not hear of it finds nothing to write to.
      expect((await appendNote(writer, dave.conversation, 'too late')).rows).toEqual([
        { status: 'not_found' },
      ]);
      expect(await rowsOf(db.url, dave.id)).toEqual(NONE);
    });

    it('takes a conversation created while it starts with the rest, and refuses any created after', async () => {
      const erin = await someone('erin');
      await writer.query('BEGIN');
      await createFor(writer, erin.id);
      const purged = purge(purger, erin.id);
      await blockedOnLock(watcher, purgerPid);
      await writer.query('COMMIT');
      expect(await purged).toMatchObject({ conversations: 2 });
      expect(await rowsOf(db.url, erin.id)).toEqual(NONE);
      // A process that has not yet heard of it (its token cache) can keep nothing more for her.
      await expect(createFor(writer, erin.id)).rejects.toThrow(/is deleted/);
      await expect(
        writer.query(
          `INSERT INTO concierge_people (owner_id, id, email) VALUES ($1, 'p-1', 'a@example.com')`,
          [erin.id],
        ),
      ).rejects.toThrow(/is deleted/);
      expect(await rowsOf(db.url, erin.id)).toEqual(NONE);
      // Purging again finds no one, and records nothing more.
      expect(await purge(purger, erin.id)).toBeUndefined();
      const audits = await watcher.query(`SELECT 1 FROM account_deletions WHERE user_id = $1`, [erin.id]);
      expect(audits.rowCount).toBe(1);
    });

    it("takes the concierge's log of what its picks changed, with the activities it changed", async () => {
      const gina = await someone('gina');
      await writer.query(
        `INSERT INTO concierge_activity_changes (owner_id, activity_id, conversation_id, change_id,
           before_status, before_classification, after_status, after_classification)
         SELECT owner_id, id, $2, 'a-pick', status, classification, 'archived', classification
         FROM concierge_activities WHERE owner_id = $1 AND id = 'mail-101'`,
        [gina.id, gina.conversation],
      );
      expect((await rowsOf(db.url, gina.id)).concierge_activity_changes).toBe(1);
      expect(await purge(purger, gina.id)).toMatchObject({ conversations: 1 });
      expect(await rowsOf(db.url, gina.id)).toEqual(NONE);
    });

    it("is the api's only way to delete, and writes the only audit rows", async () => {
      const frank = await someone('frank');
      await expect(
        writer.query(`DELETE FROM nodes WHERE conversation_id = $1`, [frank.conversation]),
      ).rejects.toThrow();
      await expect(writer.query(`DELETE FROM users WHERE id = $1`, [frank.id])).rejects.toThrow();
      await expect(
        writer.query(
          `INSERT INTO account_deletions (id, user_id, deleted_by, conversations, nodes) VALUES ($1, $2, 'self', 0, 0)`,
          [randomUUID(), frank.id],
        ),
      ).rejects.toThrow();
      expect((await rowsOf(db.url, frank.id)).users).toBe(1);
    });
  });
});

describe('deleting an account whose conversation another api process drives', () => {
  const pair = useApiPair('api_account_two');

  it('halts the runner where it runs before anything is removed', async () => {
    const { token, user } = await register(pair.a, 'gina');
    const id = (await createConversation(pair.a, token)).id;
    // Driven by a: its runner is open there, waiting on her.
    await turn(pair.a, token, id, 'my sock drawer');
    const runnersOfA = pair.a.app.get(ConversationActors);
    expect(await runnersOfA.peek(id)).toBeDefined();

    expect(
      (await call(pair.b, 'DELETE', '/api/account', { token, body: { password: PASSWORD } })).status,
    ).toBe(204);
    expect(await runnersOfA.peek(id)).toBeUndefined();
    expect(await rowsOf(pair.db.url, user.id)).toEqual(NONE);
    // Her sockets close on every process; b refuses her token at once.
    expect((await call(pair.b, 'GET', '/api/auth/me', { token })).status).toBe(401);
  });
});
