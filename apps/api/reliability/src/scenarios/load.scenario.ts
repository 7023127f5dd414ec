import { Verdict, type Scenario } from '../scenario';
import { ApiUser } from '../support/api-client';
import { apiUrl } from '../support/cluster-handle';
import type { LiveClient } from '../support/live-client';
import { percentile, rssBytes } from '../support/process-stats';
import { answerNext, connectTab, inBatches, joinOrThrow, signUp } from '../support/session';

const CONVERSATIONS = Number(process.env['RELIABILITY_LOAD_CONVERSATIONS'] ?? 500);
const TURNS = Number(process.env['RELIABILITY_LOAD_TURNS'] ?? 3);
/** Conversations per account: signing up hashes a password (argon2), which is slow on purpose. */
const PER_USER = 10;

/**
 * 5. Load: CONVERSATIONS conversations at once, each driven by its own Socket.IO client (a tab),
 * half on each api, with the offline model, for TURNS turns each. Figures: errors (must be 0), p50
 * and p99 of answer → next elicit, and the api processes' RSS per open conversation.
 */
export const loadScenario: Scenario = {
  id: 5,
  name: `load: ${CONVERSATIONS} concurrent conversations over Socket.IO, ${TURNS} turns each`,
  async run(ctx) {
    const cluster = await ctx.startCluster({ apis: 2, workers: 0 });
    const { user } = await signUp(cluster);
    const verdict = new Verdict();
    const apis = cluster.apis();
    const rssBefore = apis.map((p) => rssBytes(p.pid));
    const users = [
      user,
      ...(await inBatches(Array.from({ length: Math.ceil(CONVERSATIONS / PER_USER) - 1 }), 4, () =>
        ApiUser.register(apiUrl(cluster, 'api-1')),
      )),
    ];
    const tabs: LiveClient[] = [];
    const latencies: number[] = [];
    const errors: string[] = [];
    try {
      // Open every conversation and its tab first: the figures are for conversations held open at once.
      const opened = await inBatches(Array.from({ length: CONVERSATIONS }), 25, async (_, i) => {
        const owner = users[Math.floor(i / PER_USER)]!;
        const api = apis[i % apis.length]!;
        const conversation = await owner.on(api.url!).createConversation('tidying');
        const tab = await connectTab(api.url!, owner.token);
        tabs.push(tab);
        await joinOrThrow(tab, conversation.id);
        return { id: conversation.id, tab };
      });
      const rssOpen = apis.map((p) => rssBytes(p.pid));
      ctx.log(`${opened.length} conversations open; driving ${TURNS} turns each`);
      await Promise.all(
        opened.map(async ({ id, tab }) => {
          const answered = new Set<string>();
          try {
            await tab.nextElicit(id, answered);
            for (let turn = 0; turn < TURNS; turn++) {
              const sent = performance.now();
              const result = await answerNext(tab, id, answered, turn);
              if (result.error) {
                errors.push(result.error);
                return;
              }
              await tab.nextElicit(id, answered, 120_000);
              latencies.push(performance.now() - sent);
            }
          } catch (error) {
            errors.push((error as Error).message);
          }
        }),
      );
      const perConversation = apis.map(
        (p, i) => (rssOpen[i]! - rssBefore[i]!) / Math.max(1, Math.ceil(CONVERSATIONS / apis.length)),
      );
      verdict.figure('errors', errors.length);
      verdict.figure('turns measured', latencies.length);
      verdict.figure('answer → next elicit p50 (ms)', Math.round(percentile(latencies, 50)));
      verdict.figure('answer → next elicit p99 (ms)', Math.round(percentile(latencies, 99)));
      apis.forEach((p, i) => {
        verdict.figure(
          `${p.name} RSS before / open / after (MB)`,
          [rssBefore[i]!, rssOpen[i]!, rssBytes(p.pid)].map((b) => (b / 1048576).toFixed(0)).join(' / '),
        );
        verdict.figure(`${p.name} RSS per open conversation (kB)`, (perConversation[i]! / 1024).toFixed(1));
      });
      verdict.check(
        errors.length === 0,
        `${errors.length} error(s), e.g. ${[...new Set(errors)].slice(0, 3).join('; ')}`,
      );
      verdict.check(
        latencies.length === CONVERSATIONS * TURNS,
        `${CONVERSATIONS * TURNS - latencies.length} turn(s) never got their next elicit`,
      );
      verdict.check(
        apis.every((p) => p.alive),
        'an api process died under load',
      );
    } finally {
      for (const tab of tabs) tab.close();
    }
    return verdict.outcome();
  },
};
