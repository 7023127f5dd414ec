import type { ConversationRecord } from '@sweatpants/domain';
import type { TreeStore } from '../src';
import { createTestStore, user, type TestStore } from './test-store';

let t: TestStore;
let store: TreeStore;
beforeAll(async () => {
  t = await createTestStore('conversation_list');
  store = t.store;
});
afterAll(() => t.close());

const unwrap = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value;
};

let owners = 0;
/** A fresh owner with conversations titled `titles`, created oldest first. */
async function ownerWith(...titles: string[]): Promise<{ ownerId: string; made: ConversationRecord[] }> {
  const ownerId = `owner-${++owners}`;
  const made: ConversationRecord[] = [];
  for (const title of titles) {
    made.push((await store.createConversation({ ownerId, agent: 'tidying', title })).conversation);
  }
  return { ownerId, made };
}

const ids = (page: { items: ConversationRecord[] }) => page.items.map((c) => c.id);
/** Most recent activity first, ties (conversations made in one millisecond) by id. */
const byActivity = (records: ConversationRecord[]) =>
  [...records]
    .sort((x, y) =>
      x.updatedAt === y.updatedAt ? (x.id < y.id ? 1 : -1) : x.updatedAt < y.updatedAt ? 1 : -1,
    )
    .map((c) => c.id);

describe("an owner's conversations by last activity", () => {
  it('puts the one with the latest append first, and leaves out archived ones and other owners', async () => {
    const { ownerId, made } = await ownerWith('a', 'b', 'c');
    const [a, b, c] = made as [ConversationRecord, ConversationRecord, ConversationRecord];
    await ownerWith('someone else');
    expect(ids(unwrap(await store.recentConversations({ ownerId, limit: 10 })))).toEqual(byActivity(made));

    unwrap(await store.append({ conversationId: a.id, nodes: [user('hello')], actorId: ownerId }));
    await store.archive(b.id);
    const page = unwrap(await store.recentConversations({ ownerId, limit: 10 }));
    expect(ids(page)).toEqual([a.id, c.id]);
    expect(page.next).toBeNull();
    expect(page.items[0]!.updatedAt > a.updatedAt).toBe(true);
  });

  it('pages with `before`, the last id of the page before', async () => {
    const { ownerId, made } = await ownerWith('1', '2', '3', '4', '5');
    const newestFirst = byActivity(made);
    const first = unwrap(await store.recentConversations({ ownerId, limit: 2 }));
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.next).toBe(newestFirst[1]);
    const second = unwrap(await store.recentConversations({ ownerId, limit: 2, before: first.next! }));
    expect(ids(second)).toEqual(newestFirst.slice(2, 4));
    const last = unwrap(await store.recentConversations({ ownerId, limit: 2, before: second.next! }));
    expect(ids(last)).toEqual(newestFirst.slice(4));
    expect(last.next).toBeNull();
  });

  it("refuses a cursor that is not one of the owner's conversations", async () => {
    const { ownerId } = await ownerWith('mine');
    const { made } = await ownerWith('theirs');
    for (const before of [made[0]!.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      expect(await store.recentConversations({ ownerId, limit: 5, before })).toEqual({
        ok: false,
        error: expect.objectContaining({
          code: 'invalid_request',
          details: [expect.objectContaining({ field: 'before' })],
        }),
      });
    }
  });

  it('matches `q` anywhere in the title, whatever its case, with %, _ and \\ taken literally', async () => {
    const { ownerId, made } = await ownerWith(
      'Garage Sort',
      '100% done',
      '100 percent',
      'snake_case',
      'a\\b',
      'ab',
    );
    const search = async (q: string) =>
      ids(unwrap(await store.recentConversations({ ownerId, q, limit: 10 }))).map(
        (id) => made.find((c) => c.id === id)!.title,
      );
    expect(await search('garage')).toEqual(['Garage Sort']);
    expect(await search('RAGE s')).toEqual(['Garage Sort']);
    expect(await search('%')).toEqual(['100% done']);
    expect(await search('0%')).toEqual(['100% done']);
    expect(await search('e_c')).toEqual(['snake_case']);
    expect(await search('\\')).toEqual(['a\\b']);
    expect(await search('nothing like it')).toEqual([]);
  });
});

describe('titles', () => {
  it("renames without moving the conversation in its owner's list", async () => {
    const { ownerId, made } = await ownerWith('old', 'newer');
    const before = unwrap(await store.recentConversations({ ownerId, limit: 10 }));
    const renamed = await store.rename(made[0]!.id, 'New name');
    expect(renamed).toEqual({ ...made[0], title: 'New name', updatedAt: made[0]!.updatedAt });
    const after = unwrap(await store.recentConversations({ ownerId, limit: 10 }));
    expect(ids(after)).toEqual(ids(before));
    expect(await store.rename('00000000-0000-4000-8000-000000000000', 'x')).toBeNull();
    await store.archive(made[1]!.id);
    expect(await store.rename(made[1]!.id, 'x')).toBeNull();
  });

  it('titles an untitled conversation once, and never over a title it has', async () => {
    const { made } = await ownerWith('', 'kept');
    const [untitled, titled] = made as [ConversationRecord, ConversationRecord];
    expect(await store.titleIfUntitled(untitled.id, 'From the first words')).toBe(true);
    expect(await store.titleIfUntitled(untitled.id, 'From the second')).toBe(false);
    expect(await store.titleIfUntitled(titled.id, 'Other')).toBe(false);
    expect((await store.conversation(untitled.id))?.title).toBe('From the first words');
    expect((await store.conversation(titled.id))?.title).toBe('kept');
  });
});
