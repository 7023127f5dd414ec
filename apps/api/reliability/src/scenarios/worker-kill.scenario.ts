import { NotReady, Verdict, type Scenario } from '../scenario';
import { apiUrl, workerAvailable } from '../support/cluster-handle';
import { SeededRandom } from '../support/seeded-random';
import { acceptContentFor } from '../support/elicit-answers';
import { answerNext, connectTab, fsckProblems, inBatches, joinOrThrow, signUp } from '../support/session';
import { TreeAudit } from '../support/tree-audit';

const CONVERSATIONS = 6;
const TURNS = 6;
const ROUNDS = 10;
const SETTLE_LIMIT_MS = 180_000;

/**
 * 3. kill -9 the worker in the middle of compaction jobs, many times: every job completes or fails
 * cleanly (none stays active or waiting for ever), at most one summary covers any range, and HEAD
 * and the reflog stay consistent.
 */
export const workerKillScenario: Scenario = {
  id: 3,
  name: 'worker kill: kill -9 the worker mid-compaction, many times',
  async run(ctx) {
    if (!(await workerAvailable())) throw new NotReady('apps/api/src/worker.ts has not landed');
    const cluster = await ctx.startCluster({ apis: 1, workers: 1 });
    const { user, admin } = await signUp(cluster);
    const tab = await connectTab(apiUrl(cluster, 'api-1'), user.token);
    const verdict = new Verdict();
    const random = new SeededRandom(ctx.seed);
    const ids: string[] = [];
    const answeredIn = new Map<string, Set<string>>();
    try {
      // Conversations long enough to have something to squash.
      await inBatches(Array.from({ length: CONVERSATIONS }), 3, async () => {
        const conversation = await user.createConversation('tidying');
        ids.push(conversation.id);
        await joinOrThrow(tab, conversation.id);
        const answered = new Set<string>();
        answeredIn.set(conversation.id, answered);
        for (let turn = 0; turn < TURNS; turn++) await answerNext(tab, conversation.id, answered, turn);
      });
      const probe = await user.compact(ids[0]!);
      if (probe.status === 404 && /cannot post|no route/i.test(JSON.stringify(probe.body))) {
        throw new NotReady('POST /api/conversations/:id/compact has not landed');
      }
      verdict.check(probe.status === 202, `compact: ${probe.status} ${JSON.stringify(probe.body)}`);
      let requested = 1;
      let kills = 0;
      let turnsBetween = 0;
      for (let round = 0; round < ROUNDS; round++) {
        for (const id of ids) {
          const answer = await user.compact(id);
          verdict.check(
            answer.status === 202,
            `compact ${id}: ${answer.status} ${JSON.stringify(answer.body)}`,
          );
          requested++;
        }
        // Somewhere inside the jobs: they take a few hundred ms with the offline model.
        await new Promise((resolve) => setTimeout(resolve, random.int(50, 600)));
        await cluster.kill('worker-1');
        kills++;
        await cluster.start('worker-1');
        // A turn between rounds moves HEAD under the next jobs, which must rebase or give up cleanly.
        if (round % 3 === 2) {
          // Compaction rebases HEAD, so the chat prompt's id moves with it: answer what is pending now.
          for (const id of ids) {
            const pending = (await user.conversation(id)).pendingElicit;
            if (!pending) continue;
            const answer = await user.respond(
              id,
              pending.elicitId,
              'accept',
              acceptContentFor(pending, round),
            );
            // A compaction landing between the read and the answer moves the prompt: a race, not a fault.
            if (answer.status === 200) turnsBetween++;
            else
              verdict.check(
                answer.status === 404 || answer.status === 409,
                `${id}: a turn between rounds answered ${answer.status} ${JSON.stringify(answer.body)}`,
              );
          }
        }
      }
      verdict.figure('compactions requested', requested);
      verdict.figure('worker kills', kills);
      verdict.figure('turns between rounds', turnsBetween);
      // Every job must settle: completed, or failed with a reason.
      const deadline = Date.now() + SETTLE_LIMIT_MS;
      let jobs: { id: string; state: string; error?: string }[] = [];
      for (;;) {
        jobs = [];
        for (const id of ids)
          jobs.push(
            ...(await user.compactions(id)).items.map((j) => ({
              id: j.jobId,
              state: j.state,
              error: j.error,
            })),
          );
        if (jobs.every((j) => j.state === 'completed' || j.state === 'failed') || Date.now() > deadline)
          break;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      const unsettled = jobs.filter((j) => j.state !== 'completed' && j.state !== 'failed');
      const failedWithoutReason = jobs.filter((j) => j.state === 'failed' && !j.error);
      verdict.figure('jobs completed', jobs.filter((j) => j.state === 'completed').length);
      verdict.figure('jobs failed cleanly', jobs.filter((j) => j.state === 'failed' && j.error).length);
      verdict.figure('jobs unsettled', unsettled.length);
      verdict.check(
        unsettled.length === 0,
        `${unsettled.length} job(s) still ${[...new Set(unsettled.map((j) => j.state))].join('/')}`,
      );
      verdict.check(
        failedWithoutReason.length === 0,
        `${failedWithoutReason.length} failed job(s) carry no error`,
      );
      const audit = await TreeAudit.open(cluster.databaseUrl);
      let summaries = 0;
      try {
        for (const id of ids) {
          for (const p of await audit.doubledSummaries(id)) verdict.check(false, `${id}: ${p}`);
          for (const p of await audit.reflogProblems(id)) verdict.check(false, `${id}: ${p}`);
          for (const p of await fsckProblems(admin, id)) verdict.check(false, p);
          const head = (await user.conversation(id)).head;
          const path = await audit.headPath(id);
          verdict.check(
            path.at(-1)?.id === head,
            `${id}: the api says HEAD is ${head}, the refs table ${path.at(-1)?.id}`,
          );
          summaries += path.filter((n) => n.kind === 'summary').length;
        }
      } finally {
        await audit.close();
      }
      verdict.figure('summaries on HEAD paths', summaries);
      verdict.check(
        jobs.some((j) => j.state === 'completed'),
        'no compaction completed at all',
      );
    } finally {
      tab.close();
    }
    return verdict.outcome();
  },
};
