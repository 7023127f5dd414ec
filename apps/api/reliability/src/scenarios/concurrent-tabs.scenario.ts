import { Verdict, type Scenario } from '../scenario';
import { apiUrl } from '../support/cluster-handle';
import type { LiveClient } from '../support/live-client';
import { SeededRandom } from '../support/seeded-random';
import { answerNext, connectTab, fsckProblems, joinOrThrow, signUp } from '../support/session';
import { TreeAudit } from '../support/tree-audit';

const WARMUP_TURNS = 4;
const ACTIONS_PER_TAB = 40;

/**
 * 7. One user in two tabs (one on each api) editing, rewinding, recovering and sending on the same
 * conversation at once: the reflog stays continuous, no HEAD move (an acknowledged rewind or
 * recover, or a `head` event either tab saw) is without its reflog row, and no acknowledged message
 * or edit is lost from the tree.
 */
export const concurrentTabsScenario: Scenario = {
  id: 7,
  name: 'two tabs editing, rewinding and recovering the same conversation',
  async run(ctx) {
    const cluster = await ctx.startCluster({ apis: 2, workers: 0 });
    const { user, admin } = await signUp(cluster);
    const conversation = await user.createConversation('tidying');
    const id = conversation.id;
    const tabs = [
      await connectTab(apiUrl(cluster, 'api-1'), user.token),
      await connectTab(apiUrl(cluster, 'api-2'), user.token),
    ];
    const verdict = new Verdict();
    const ackedNodes: string[] = [];
    const ackedMoves: string[] = [];
    const tally = new Map<string, { ok: number; refused: Map<string, number> }>();
    const count = (action: string, ack: { ok: true } | { ok: false; error: { code: string } }) => {
      const t = tally.get(action) ?? { ok: 0, refused: new Map<string, number>() };
      if (ack.ok) t.ok++;
      else t.refused.set(ack.error.code, (t.refused.get(ack.error.code) ?? 0) + 1);
      tally.set(action, t);
    };
    try {
      for (const tab of tabs) await joinOrThrow(tab, id);
      const answered = new Set<string>();
      for (let turn = 0; turn < WARMUP_TURNS; turn++) {
        const r = await answerNext(tabs[0]!, id, answered, turn);
        if (r.nodeId) ackedNodes.push(r.nodeId);
      }
      const act = async (tab: LiveClient, random: SeededRandom) => {
        for (let i = 0; i < ACTIONS_PER_TAB; i++) {
          const roll = random.int(0, 9);
          if (roll < 4) {
            const ack = await tab.emit('message:send', {
              conversationId: id,
              text: `tab message ${random.int(0, 1e6)}`,
            });
            count('send', ack);
            if (ack.ok) ackedNodes.push(ack.node.id);
          } else if (roll < 6) {
            const ack = await tab.emit('conversation:rewind', {
              conversationId: id,
              to: `HEAD~${random.int(1, 4)}`,
            });
            count('rewind', ack);
            if (ack.ok) ackedMoves.push(ack.reflog.id);
          } else if (roll < 8) {
            const path = await user.path(id).catch(() => ({ nodes: [] }));
            const users = path.nodes.filter((n) => n.kind === 'user');
            if (users.length === 0) continue;
            const ack = await tab.emit('message:edit', {
              conversationId: id,
              nodeId: random.pick(users).id,
              text: `edited ${random.int(0, 1e6)}`,
            });
            count('edit', ack);
            if (ack.ok) ackedNodes.push(ack.node.id);
          } else {
            const entries = await user.reflog(id).catch(() => []);
            if (entries.length === 0) continue;
            const ack = await tab.emit('conversation:recover', {
              conversationId: id,
              reflogId: random.pick(entries).id,
            });
            count('recover', ack);
            if (ack.ok) ackedMoves.push(ack.reflog.id);
          }
        }
      };
      await Promise.all(tabs.map((tab, i) => act(tab, new SeededRandom(ctx.seed * 31 + i))));
      // Let the last runs settle before reading the tree.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      for (const [action, t] of tally) {
        const refused = [...t.refused].map(([code, n]) => `${n} ${code}`).join(', ') || 'none';
        verdict.figure(action, `${t.ok} acknowledged; refused: ${refused}`);
      }
      // Losing a race is a conflict; an internal error is the server failing under it.
      for (const [action, t] of tally) {
        const internal = t.refused.get('internal') ?? 0;
        verdict.check(internal === 0, `${action}: ${internal} ack(s) with an internal error`);
      }
      // A message sent while the agent worked is acknowledged as its queue entry (PROTOCOL.md's
      // queued node): it is kept once the tree has the `user` node that took it, or while it waits.
      const nodes = await user.tree(id);
      const tree = new Set(nodes.map((n) => n.id));
      for (const n of nodes)
        if (n.kind === 'user' && typeof n.payload['queuedId'] === 'string') tree.add(n.payload['queuedId']);
      const view = await user.call<{ queued?: { id: string }[] }>('GET', `/api/conversations/${id}`);
      if (view.status === 200 && 'queued' in view.body)
        for (const m of view.body.queued ?? []) tree.add(m.id);
      const reflog = await user.reflog(id);
      const reflogIds = new Set(reflog.map((e) => e.id));
      const lost = ackedNodes.filter((n) => !tree.has(n));
      verdict.check(
        lost.length === 0,
        `${lost.length} acknowledged message(s) or edit(s) missing from the tree`,
      );
      const unlogged = ackedMoves.filter((m) => !reflogIds.has(m));
      verdict.check(
        unlogged.length === 0,
        `${unlogged.length} acknowledged HEAD move(s) without their reflog row`,
      );
      for (const [i, tab] of tabs.entries()) {
        const seen = tab.events('head', id);
        const orphan = seen.filter((e) => !reflogIds.has(e.reflog.id));
        verdict.check(
          orphan.length === 0,
          `tab ${i + 1} saw ${orphan.length} HEAD move(s) with no reflog row`,
        );
        verdict.figure(`tab ${i + 1} HEAD events`, seen.length);
      }
      verdict.figure('reflog rows', reflog.length);
      verdict.figure('acknowledged nodes checked', ackedNodes.length);
      const audit = await TreeAudit.open(cluster.databaseUrl);
      try {
        for (const p of await audit.reflogProblems(id)) verdict.check(false, p);
      } finally {
        await audit.close();
      }
      for (const p of await fsckProblems(admin, id)) verdict.check(false, p);
    } finally {
      for (const tab of tabs) tab.close();
    }
    return verdict.outcome();
  },
};
