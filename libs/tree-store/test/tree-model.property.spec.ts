import * as fc from 'fast-check';
import type { ReflogAction } from '@sweatpants/domain';
import type { TreeStore } from '../src';
import { createTestStore, user, type TestStore } from './test-store';

/**
 * A small in-memory git: nodes with parents, HEAD, and the reflog. The store must agree with it
 * after every step of any sequence of operations.
 */
class ModelTree {
  parents = new Map<string, string | null>();
  order: string[] = [];
  /** the user messages, which are what edit applies to */
  users = new Set<string>();
  head: string;
  reflog: { action: ReflogAction; oldHead: string | null; newHead: string }[] = [];

  constructor(root: string) {
    this.parents.set(root, null);
    this.order.push(root);
    this.head = root;
    this.reflog.push({ action: 'create', oldHead: null, newHead: root });
  }

  add(id: string, parent: string, isUser = true): void {
    if (!this.parents.has(id)) {
      this.parents.set(id, parent);
      this.order.push(id);
      if (isUser) this.users.add(id);
    }
  }

  moveHead(to: string, action: ReflogAction): void {
    this.reflog.push({ action, oldHead: this.head, newHead: to });
    this.head = to;
  }

  path(to = this.head): string[] {
    const path: string[] = [];
    for (let at: string | null = to; at !== null; at = this.parents.get(at) ?? null) path.unshift(at);
    return path;
  }

  children(of: string): string[] {
    return this.order.filter((id) => this.parents.get(id) === of);
  }
}

type Op =
  | { kind: 'append'; count: number }
  | { kind: 'appendUnder'; pick: number }
  | { kind: 'staleAppend' }
  | { kind: 'rewind'; pick: number }
  | { kind: 'edit'; pick: number }
  | { kind: 'recover'; pick: number }
  | { kind: 'cancel' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('appendUnder' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('staleAppend' as const) }),
  fc.record({ kind: fc.constant('rewind' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('edit' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('recover' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('cancel' as const) }),
);

let t: TestStore;
let store: TreeStore;
beforeAll(async () => {
  t = await createTestStore('tree_model');
  store = t.store;
});
afterAll(() => t.close());

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

async function apply(id: string, model: ModelTree, op: Op, step: number): Promise<void> {
  switch (op.kind) {
    case 'append': {
      const nodes = Array.from({ length: op.count }, (_, i) => user(`s${step}.${i}`));
      const r = must(
        await store.append({ conversationId: id, nodes, expectedHead: model.head, actorId: 'u' }),
      );
      r.nodes.forEach((n) => model.add(n.id, n.parentId as string));
      model.moveHead(r.head, 'append');
      break;
    }
    case 'appendUnder': {
      const parent = model.order[op.pick % model.order.length] as string;
      const r = must(
        await store.append({ conversationId: id, nodes: [user(`u${step}`)], parentId: parent, actorId: 'u' }),
      );
      model.add(r.head, parent);
      model.moveHead(r.head, 'append');
      break;
    }
    case 'staleAppend': {
      const stale = model.order.find((n) => n !== model.head);
      if (!stale) return;
      const r = await store.append({
        conversationId: id,
        nodes: [user('late')],
        expectedHead: stale,
        actorId: 'u',
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'conflict', head: model.head } });
      break;
    }
    case 'rewind': {
      const path = model.path();
      const target = path[op.pick % path.length] as string;
      const r = must(
        await store.move({
          conversationId: id,
          to: target,
          action: 'rewind',
          actorId: 'u',
          expectedHead: model.head,
        }),
      );
      expect(r.head).toBe(target);
      model.moveHead(target, 'rewind');
      break;
    }
    case 'edit': {
      const users = [...model.users];
      if (users.length === 0) return;
      const nodeId = users[op.pick % users.length] as string;
      const r = must(
        await store.edit({ conversationId: id, nodeId, text: `edit ${step}`, authorId: 'u', actorId: 'u' }),
      );
      model.add(r.head, model.parents.get(nodeId) as string);
      model.moveHead(r.head, 'edit');
      break;
    }
    case 'recover': {
      const log = must(await store.reflog(id, { limit: 1000 }));
      const entry = log.entries[op.pick % log.entries.length];
      if (!entry) return;
      must(await store.recover({ conversationId: id, reflogId: entry.id, actorId: 'u' }));
      model.moveHead(entry.newHead, 'recover');
      break;
    }
    case 'cancel': {
      const r = must(
        await store.append({
          conversationId: id,
          nodes: [{ kind: 'cancel', payload: {}, authorId: 'agent:t' }],
          action: 'cancel',
          actorId: 'u',
        }),
      );
      model.add(r.head, model.head, false);
      model.moveHead(r.head, 'cancel');
      break;
    }
  }
}

async function compare(id: string, model: ModelTree): Promise<void> {
  const head = await store.head(id);
  expect(head?.id).toBe(model.head);
  const path = must(await store.path(id));
  expect(path.map((n) => n.id)).toEqual(model.path());
  expect(path.map((n) => n.depth)).toEqual(path.map((_, i) => i));
  const some = model.order[model.order.length >> 1] as string;
  expect((await store.children(id, some)).map((n) => n.id).sort()).toEqual(model.children(some).sort());
  expect(must(await store.path(id, some)).map((n) => n.id)).toEqual(model.path(some));
  const log = must(await store.reflog(id, { limit: 1000 }));
  expect(log.entries.map((e) => ({ action: e.action, oldHead: e.oldHead, newHead: e.newHead }))).toEqual(
    [...model.reflog].reverse(),
  );
}

it('every sequence of operations keeps HEAD, paths, children and the reflog as a git model says', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
      const { conversation } = await store.createConversation({ ownerId: 'u', agent: 'tidying' });
      const model = new ModelTree(conversation.head);
      for (const [step, op] of ops.entries()) {
        await apply(conversation.id, model, op, step);
        await compare(conversation.id, model);
      }
      const tree = must(await store.tree(conversation.id, { limit: 1000 }));
      expect(tree.nodes.map((n) => n.id).sort()).toEqual([...model.order].sort());
      expect((await store.fsck(conversation.id))?.problems).toEqual([]);
    }),
    { numRuns: 100, seed: 20261121 },
  );
}, 180_000);
