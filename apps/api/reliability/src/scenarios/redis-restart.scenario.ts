import { Verdict, type Scenario } from '../scenario';
import { request } from '../support/api-client';
import { apiUrl, workerAvailable } from '../support/cluster-handle';
import { PrivateRedis } from '../support/private-redis';
import { acceptContentFor } from '../support/elicit-answers';
import { answerNext, connectTab, fsckProblems, joinOrThrow, signUp } from '../support/session';
import { TreeAudit } from '../support/tree-audit';

const CONVERSATIONS = 3;
const OUTAGE_MS = 3_000;
const RETURN_LIMIT_MS = 90_000;

/**
 * 4. Restart Redis mid-session (a redis-server of the scenario's own, never the shared one): every
 * node written before, during and after the outage is still there, and the service comes back by
 * itself (health ok on every api, sockets answered, turns run) without restarting any process.
 */
export const redisRestartScenario: Scenario = {
  id: 4,
  name: 'Redis restart mid-session: no conversation data lost, the service returns by itself',
  async run(ctx) {
    const redis = await PrivateRedis.start();
    const verdict = new Verdict();
    try {
      const workers = (await workerAvailable()) ? 1 : 0;
      const cluster = await ctx.startCluster({ apis: 2, workers, redisUrl: redis.url });
      const pids = cluster.apis().map((p) => p.pid);
      const { user, admin } = await signUp(cluster);
      const tab = await connectTab(apiUrl(cluster, 'api-1'), user.token);
      const acked: string[] = [];
      const ids: string[] = [];
      const answered = new Map<string, Set<string>>();
      try {
        for (let i = 0; i < CONVERSATIONS; i++) {
          const conversation = await user.createConversation('tidying');
          ids.push(conversation.id);
          answered.set(conversation.id, new Set());
          await joinOrThrow(tab, conversation.id);
          for (let turn = 0; turn < 2; turn++) {
            const r = await answerNext(tab, conversation.id, answered.get(conversation.id)!, turn);
            if (r.nodeId) acked.push(r.nodeId);
          }
        }
        const nodesBefore = await Promise.all(ids.map(async (id) => (await user.tree(id)).map((n) => n.id)));
        ctx.log('kill -9 redis-server');
        await redis.down();
        // During the outage Postgres still takes writes over HTTP; what it acknowledges must last.
        let duringOk = 0;
        for (const id of ids) {
          const pending = (await user.conversation(id)).pendingElicit;
          if (!pending) continue;
          const answer = await user.respond(id, pending.elicitId, 'accept', acceptContentFor(pending, 2));
          if (answer.status === 200 && 'node' in answer.body) {
            duringOk++;
            acked.push(answer.body.node.id);
            answered.get(id)!.add(pending.elicitId);
          } else
            verdict.check(
              answer.status < 500 || answer.status === 503,
              `during the outage: ${answer.status} ${JSON.stringify(answer.body)}`,
            );
        }
        verdict.figure('answers accepted during the outage', `${duringOk} of ${ids.length}`);
        await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
        await redis.up();
        const upAt = Date.now();
        ctx.log('redis-server is back (empty)');
        for (const api of cluster.apis()) {
          const deadline = Date.now() + RETURN_LIMIT_MS;
          let ok = false;
          while (!ok && Date.now() < deadline) {
            ok = (await request(api.url!, 'GET', '/api/health').catch(() => ({ status: 0 }))).status === 200;
            if (!ok) await new Promise((resolve) => setTimeout(resolve, 250));
          }
          verdict.check(ok, `${api.name} did not report healthy again`);
        }
        verdict.figure('Redis back → every api healthy (ms)', Date.now() - upAt);
        verdict.check(
          cluster.apis().every((p, i) => p.alive && p.pid === pids[i]),
          'an api process died or was replaced; it should ride the outage out',
        );
        // The socket reconnects by itself and the conversations go on.
        for (const id of ids) {
          const r = await answerNext(tab, id, answered.get(id)!, 3, RETURN_LIMIT_MS);
          verdict.check(r.error === undefined, `${id}: the turn after the outage was refused: ${r.error}`);
          if (r.nodeId) acked.push(r.nodeId);
        }
        if (workers > 0) {
          const job = await user.compact(ids[0]!);
          verdict.check(job.status === 202, `compact after the outage answered ${job.status}`);
        }
        const audit = await TreeAudit.open(cluster.databaseUrl);
        try {
          const missing = await audit.missingNodes([...acked, ...nodesBefore.flat()]);
          verdict.figure('nodes checked', acked.length + nodesBefore.flat().length);
          verdict.check(missing.length === 0, `${missing.length} node(s) lost`);
          for (const id of ids) {
            for (const p of await audit.problems(id)) verdict.check(false, `${id}: ${p}`);
            for (const p of await fsckProblems(admin, id)) verdict.check(false, p);
          }
        } finally {
          await audit.close();
        }
      } finally {
        tab.close();
      }
    } finally {
      await redis.down();
    }
    return verdict.outcome();
  },
};
