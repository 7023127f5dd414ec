import type { GcRun, GcRunList } from '@sweatpants/domain';
import { Verdict, type Scenario } from '../scenario';
import { ApiUser } from '../support/api-client';
import { apiUrl } from '../support/cluster-handle';
import { fsckProblems, inBatches, settled, signUp } from '../support/session';

const CONVERSATIONS = Number(process.env['RELIABILITY_GC_CONVERSATIONS'] ?? 500);
/** Conversations per account: signing up hashes a password (argon2), which is slow on purpose. */
const PER_USER = 10;
/** gc runs while the conversations keep talking. */
const GC_RUNS = 3;

/**
 * 8. Retention under load: CONVERSATIONS conversations each with a discarded branch (a rewind),
 * gc with a retention of 0 days run GC_RUNS times by the worker while every conversation keeps
 * talking. Nothing a ref reaches is lost (each HEAD path still holds every node it held before,
 * plus what was said meanwhile), every conversation passes fsck after, and the discarded branches
 * are what went.
 */
export const gcUnderLoadScenario: Scenario = {
  id: 8,
  name: `gc under load: ${CONVERSATIONS} conversations with discarded branches, gc at 0 days while they talk`,
  async run(ctx) {
    const cluster = await ctx.startCluster({
      apis: 2,
      workers: 1,
      env: { GC_EVERY_MINUTES: 'off', GC_REFLOG_EXPIRE_DAYS: '0', GC_REFLOG_EXPIRE_UNREACHABLE_DAYS: '0' },
    });
    const { user, admin } = await signUp(cluster);
    const verdict = new Verdict();
    const apis = cluster.apis();
    const users = [
      user,
      ...(await inBatches(Array.from({ length: Math.ceil(CONVERSATIONS / PER_USER) - 1 }), 4, () =>
        ApiUser.register(apiUrl(cluster, 'api-1')),
      )),
    ];
    const errors: string[] = [];
    // Each conversation: a message, another, back two steps (a discarded branch), a third.
    const made = await inBatches(Array.from({ length: CONVERSATIONS }), 25, async (_, i) => {
      const owner = users[Math.floor(i / PER_USER)]!.on(apis[i % apis.length]!.url!);
      const { id } = await owner.createConversation('tidying');
      for (const [step, text] of ['the bookshelf', 'the wardrobe'].entries()) {
        const sent = await owner.sendMessage(id, `${text} ${i}.${step}`);
        if (sent.status !== 201) errors.push(`send ${id}: ${sent.status}`);
        await settled(owner, id);
      }
      const back = await owner.rewind(id, 'HEAD~2');
      if (back.status !== 200) errors.push(`rewind ${id}: ${back.status}`);
      await owner.sendMessage(id, `the desk ${i}`);
      await settled(owner, id);
      return { id, owner, before: (await owner.path(id)).nodes.map((n) => n.id) };
    });
    ctx.log(`${made.length} conversations with a discarded branch each; running gc while they talk`);

    // gc runs in the worker while every conversation sends one more message.
    const asked: string[] = [];
    const talking = inBatches(made, 50, async ({ id, owner }, i) => {
      const sent = await owner.sendMessage(id, `meanwhile ${i}`);
      if (sent.status !== 201 && sent.status !== 409) errors.push(`send during gc ${id}: ${sent.status}`);
      await settled(owner, id);
    });
    for (let run = 0; run < GC_RUNS; run++) {
      const queued = await admin.call<{ jobId: string }>('POST', '/api/admin/gc', { dryRun: false });
      if (queued.status === 202) asked.push('queued');
      else errors.push(`gc: ${queued.status}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await talking;
    let runs: GcRun[] = [];
    const until = Date.now() + 120_000;
    while (Date.now() < until) {
      const answer = await admin.call<GcRunList>('GET', '/api/admin/gc?limit=20');
      runs = answer.status === 200 && 'items' in answer.body ? answer.body.items : [];
      if (runs.length >= GC_RUNS && runs.every((r) => r.finishedAt !== null)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // One more after the load, so every discarded branch has gone by the end.
    await admin.call('POST', '/api/admin/gc', { dryRun: false });
    const last = Date.now() + 120_000;
    while (Date.now() < last) {
      const answer = await admin.call<GcRunList>('GET', '/api/admin/gc?limit=20');
      runs = answer.status === 200 && 'items' in answer.body ? answer.body.items : [];
      if (runs.length >= GC_RUNS + 1 && runs.every((r) => r.finishedAt !== null)) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }

    // Nothing reachable lost; every tree whole.
    let lost = 0;
    const problems: string[] = [];
    await inBatches(made, 25, async ({ id, owner, before }) => {
      const after = new Set((await owner.path(id)).nodes.map((n) => n.id));
      lost += before.filter((n) => !after.has(n)).length;
      problems.push(...(await fsckProblems(admin, id)));
    });
    const removed = runs.reduce((n, r) => n + r.nodes, 0);
    verdict.figure('conversations', made.length);
    verdict.figure('gc runs', runs.length);
    verdict.figure('gc runs failed', runs.filter((r) => r.error !== null).length);
    verdict.figure('nodes removed', removed);
    verdict.figure(
      'reflog entries removed',
      runs.reduce((n, r) => n + r.reflogEntries, 0),
    );
    verdict.figure('reachable nodes lost', lost);
    verdict.figure('fsck problems', problems.length);
    verdict.figure('errors', errors.length);
    verdict.check(errors.length === 0, `errors: ${errors.slice(0, 5).join('; ')}`);
    verdict.check(
      runs.length >= GC_RUNS + 1 && runs.every((r) => r.error === null),
      'a gc run failed or never ran',
    );
    verdict.check(lost === 0, `${lost} nodes on a HEAD path were lost`);
    verdict.check(problems.length === 0, problems.slice(0, 5).join('; '));
    verdict.check(
      removed >= made.length,
      `gc removed ${removed} nodes; each discarded branch holds at least one`,
    );
    return verdict.outcome();
  },
};
