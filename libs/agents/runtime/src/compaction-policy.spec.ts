import type { Json, NodeKind, TreeNode } from '@sweatpants/domain';
import { run } from 'effection';
import {
  compactAtTokens,
  CompactionPolicy,
  DEFAULT_COMPACT_AFTER,
  DEFAULT_COMPACT_AT_TOKENS,
  nextRequestTokens,
} from './compaction-policy';

let minute = 0;
/** A node written `minute` minutes into the conversation (the path's order is the test's). */
const node = (kind: NodeKind, payload: { [key: string]: Json } = {}, at = minute++): TreeNode =>
  ({ kind, payload, createdAt: new Date(Date.UTC(2026, 10, 25, 12, at)).toISOString() }) as TreeNode;
const reply = (usage: { [key: string]: number }, extra: { [key: string]: Json } = {}, at = minute++) =>
  node('assistant', { text: 'ok', usage, ...extra }, at);

const due = (path: TreeNode[]) => run(() => CompactionPolicy.operations.due(path));

describe('compaction by what the model is sent', () => {
  beforeEach(() => {
    minute = 0;
  });

  it('reads the next request’s size from the last call: every input token it sent, and its output', () => {
    const path = [
      node('root'),
      node('user'),
      reply({ inputTokens: 900, cacheWriteTokens: 3000, cacheReadTokens: 0, outputTokens: 100 }),
      node('user'),
      reply({ inputTokens: 250, cacheReadTokens: 3900, outputTokens: 120 }),
      node('user'),
    ];
    expect(nextRequestTokens(path)).toBe(250 + 3900 + 120);
  });

  it('asks to be compacted once the next request would pass the budget, however few the nodes', async () => {
    const small = [node('root'), node('user'), reply({ inputTokens: 1200, outputTokens: 80 })];
    const large = [
      node('root'),
      node('user'),
      reply({ inputTokens: 400, cacheReadTokens: DEFAULT_COMPACT_AT_TOKENS, outputTokens: 80 }),
    ];
    expect(await due(small)).toBe(false);
    expect(await due(large)).toBe(true);
  });

  it('does not ask for many nodes of short taps that keep the request small', async () => {
    const taps = [
      node('root'),
      ...Array.from({ length: DEFAULT_COMPACT_AFTER + 50 }, () => node('response')),
    ];
    taps.push(reply({ inputTokens: 300, cacheReadTokens: 8000, outputTokens: 40 }));
    expect(await due(taps)).toBe(false);
  });

  it('ignores the runtime’s side calls and the usage of nodes rebased onto a summary', async () => {
    const beforeCompaction = reply({ inputTokens: 90_000, outputTokens: 100 }, {}, 1);
    const summary = node('summary', { text: 'earlier' }, 30);
    // rebased: a copy keeps its content and time, from before the history shrank
    const rebased = { ...beforeCompaction };
    const sideCall = reply({ inputTokens: 70_000, outputTokens: 5 }, { purpose: 'interpret' }, 31);
    expect(
      nextRequestTokens([node('root', {}, 0), summary, rebased, node('user', {}, 32), sideCall]),
    ).toBeNull();
    // with no call to go by, the node count decides, and a few nodes after a summary are few
    expect(await due([node('root', {}, 0), summary, rebased, node('user', {}, 32)])).toBe(false);
  });

  it('takes an agent’s own budget (compactAtTokens) for its scope', async () => {
    const path = [node('root'), node('user'), reply({ inputTokens: 6000, outputTokens: 100 })];
    const decided = await run(function* () {
      const before = yield* CompactionPolicy.operations.due(path);
      yield* compactAtTokens(5000).install({} as never);
      return [before, yield* CompactionPolicy.operations.due(path)];
    });
    expect(decided).toEqual([false, true]);
  });
});
