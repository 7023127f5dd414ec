import type { Conversation, ConversationList } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createConversation, say } from './support/flows';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';

describe("GET /api/conversations: the caller's own, by last activity", () => {
  let db: TestDatabase;
  let api: TestApi;

  beforeAll(async () => {
    db = await createTestDatabase('api_conversation_list');
    api = await startApi({ DATABASE_URL: db.url });
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const list = (token: string, query = '') =>
    call<ConversationList>(api, 'GET', `/api/conversations${query}`, { token });
  const ids = (items: readonly Conversation[]) => items.map((c) => c.id);
  /** Conversations titled `titles`, made in this order, a few milliseconds apart (times are ms). */
  const made = async (token: string, ...titles: string[]) => {
    const out: Conversation[] = [];
    for (const title of titles) {
      out.push(await createConversation(api, token, { agent: 'tidying', title }));
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    return out;
  };

  it('puts the conversation with the latest activity first: a message in an older one moves it up', async () => {
    const { token } = await register(api, 'lister');
    const [older, newer] = await made(token, 'older', 'newer');
    expect(ids((await list(token)).body.items)).toEqual([newer!.id, older!.id]);

    await say(api, token, older!.id, 'hello');
    const res = await list(token);
    expect(res.status).toBe(200);
    expect(ids(res.body.items)).toEqual([older!.id, newer!.id]);
    expect(res.body.next).toBeNull();
    expect(res.body.items[0]).toEqual(
      expect.objectContaining({
        id: older!.id,
        title: 'older',
        agent: 'tidying',
        updatedAt: expect.any(String),
      }),
    );
    expect(res.body.items[0]!.updatedAt > older!.updatedAt).toBe(true);

    await say(api, token, newer!.id, 'hi');
    expect(ids((await list(token)).body.items)).toEqual([newer!.id, older!.id]);
  });

  it("leaves out archived conversations and everyone else's", async () => {
    const { token } = await register(api, 'archiver');
    const [kept, archived] = await made(token, 'kept', 'archived');
    const other = await register(api, 'neighbour');
    await made(other.token, 'not yours');
    expect((await call(api, 'DELETE', `/api/conversations/${archived!.id}`, { token })).status).toBe(204);
    expect(ids((await list(token)).body.items)).toEqual([kept!.id]);
  });

  it('pages with limit, next and before, each conversation once, in the order of the whole list', async () => {
    const { token } = await register(api, 'pager');
    await made(token, 'a', 'b', 'c', 'd', 'e');
    const whole = ids((await list(token)).body.items);
    expect(whole).toHaveLength(5);

    const seen: string[] = [];
    let query = '?limit=2';
    for (let page = 0; page < 3; page++) {
      const res = await list(token, query);
      expect(res.status).toBe(200);
      seen.push(...ids(res.body.items));
      expect(res.body.next).toBe(page < 2 ? res.body.items.at(-1)!.id : null);
      query = `?limit=2&before=${res.body.next}`;
    }
    expect(seen).toEqual(whole);
  });

  it('reads 50 by default', async () => {
    const { token } = await register(api, 'many');
    for (let i = 0; i < 51; i++) await createConversation(api, token);
    const res = await list(token);
    expect(res.body.items).toHaveLength(50);
    expect(res.body.next).toBe(res.body.items[49]!.id);
    expect((await list(token, `?before=${res.body.next}`)).body.items).toHaveLength(1);
    // 51 conversations created one by one: more than jest's default five seconds on a loaded machine
  }, 30_000);

  it('matches q anywhere in a title, ignoring case, with % and _ as plain characters', async () => {
    const { token } = await register(api, 'searcher');
    const [garage, percent, plain, underscore] = await made(
      token,
      'The Garage, finally',
      'Desk 100% done',
      'Desk 100 done',
      'snake_case shelf',
    );
    const search = async (q: string) => {
      const res = await list(token, `?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      return ids(res.body.items).sort();
    };
    expect(await search('garage')).toEqual([garage!.id]);
    expect(await search('  GARAGE ')).toEqual([garage!.id]);
    expect(await search('%')).toEqual([percent!.id]);
    expect(await search('100% d')).toEqual([percent!.id]);
    expect(await search('e_c')).toEqual([underscore!.id]);
    expect(await search('desk')).toEqual([percent!.id, plain!.id].sort());
    expect(await search('wardrobe')).toEqual([]);
    // an empty q is no filter
    expect(await search('')).toHaveLength(4);
  });

  it('names each bad query value in a 400', async () => {
    const { token } = await register(api, 'careless');
    const other = await register(api, 'other');
    const [theirs] = await made(other.token, 'theirs');
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?limit=ten', 'limit'],
      ['?limit=1.5', 'limit'],
      [`?q=${'x'.repeat(201)}`, 'q'],
      ['?before=not-an-id', 'before'],
      [`?before=${theirs!.id}`, 'before'],
    ] as const) {
      const res = await call<{ error: { details: { field: string }[] } }>(
        api,
        'GET',
        `/api/conversations${query}`,
        { token },
      );
      expect([query, res.status, res.body]).toEqual([query, 400, errorOf('invalid_request')]);
      expect(res.body.error.details.map((d) => d.field)).toEqual([field]);
    }
  });
});
