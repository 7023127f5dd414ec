import { ERROR_STATUS } from '@sweatpants/domain';

import { Verdict, type Scenario } from '../scenario';
import { request } from '../support/api-client';
import { apiUrl } from '../support/cluster-handle';
import type { LiveClient } from '../support/live-client';
import { garbagePacket, malformedFrame, malformedRequest } from '../support/malformed-input';
import { SeededRandom } from '../support/seeded-random';
import { answerNext, connectTab, fsckProblems, inBatches, joinOrThrow, signUp } from '../support/session';
import { TreeAudit } from '../support/tree-audit';

const TOTAL = Number(process.env['RELIABILITY_FUZZ_COUNT'] ?? 100_000);
const HTTP_SHARE = 0.5;
const HTTP_IN_FLIGHT = 16;
const FRAME_BURST = 250;

/**
 * 6. Fuzz: TOTAL malformed WebSocket frames and HTTP bodies from a seeded generator against both
 * apis: no process crashes, no response of 500 or more (nor an ack with an error code PROTOCOL.md
 * does not have), and every conversation still passes fsck.
 */
export const fuzzScenario: Scenario = {
  id: 6,
  name: `fuzz: ${TOTAL} malformed WebSocket frames and HTTP bodies`,
  async run(ctx) {
    const cluster = await ctx.startCluster({ apis: 2, workers: 0 });
    const { user, admin } = await signUp(cluster);
    const verdict = new Verdict();
    const random = new SeededRandom(ctx.seed);
    const apis = cluster.apis();
    const pids = apis.map((p) => p.pid);
    const ids: string[] = [];
    const tabs: LiveClient[] = [];
    try {
      // Real conversations with history, so malformed input can aim at ids that exist.
      for (let i = 0; i < 4; i++) {
        const conversation = await user.createConversation(i % 2 === 0 ? 'tidying' : 'concierge');
        ids.push(conversation.id);
        const tab = await connectTab(apis[i % 2]!.url!, user.token);
        tabs.push(tab);
        await joinOrThrow(tab, conversation.id);
        const answered = new Set<string>();
        for (let turn = 0; turn < 2; turn++) await answerNext(tab, conversation.id, answered, turn);
      }
      const httpCount = Math.round(TOTAL * HTTP_SHARE);
      const frameCount = TOTAL - httpCount;
      const statuses = new Map<number, number>();
      let serverErrors = 0;
      let dropped = 0;
      const examples: string[] = [];
      const requests = Array.from({ length: httpCount }, () => malformedRequest(random, ids));
      const httpStarted = Date.now();
      await inBatches(requests, HTTP_IN_FLIGHT, async (r, i) => {
        const base = apis[i % apis.length]!.url!;
        const token = random.chance(0.9) ? user.token : undefined;
        try {
          const answer = await request<unknown>(base, r.method, r.path, {
            token,
            rawBody: r.body,
            contentType: r.contentType,
          });
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status >= 500) {
            serverErrors++;
            if (examples.length < 5)
              examples.push(
                `${r.method} ${r.path} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`,
              );
          }
        } catch (error) {
          dropped++;
          const cause = (error as Error & { cause?: { message?: string; code?: string } }).cause;
          if (examples.length < 5)
            examples.push(
              `${r.method} ${r.path} → ${(error as Error).message} (${cause?.code ?? cause?.message ?? 'no cause'})`,
            );
        }
      });
      ctx.log(
        `${httpCount} requests: ${[...statuses]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
      );

      const framesStarted = Date.now();
      // Frames: mostly well-formed packets with payloads that do not fit, a few undecodable ones.
      const knownCodes = new Set<string>(Object.keys(ERROR_STATUS));
      let acks = 0;
      let strangeAcks = 0;
      let sent = 0;
      while (sent < frameCount) {
        const tab = tabs[sent % tabs.length]!;
        const burst = Math.min(FRAME_BURST, frameCount - sent);
        const waits: Promise<void>[] = [];
        for (let i = 0; i < burst; i++) {
          if (random.chance(0.005)) {
            tab.emitRawPacket(garbagePacket(random));
            continue;
          }
          const frame = malformedFrame(random, ids);
          // Only PROTOCOL's events promise an ack; asking one of a made-up event would just wait.
          if (random.chance(0.1) && frame.event.includes(':') && frame.event !== 'admin:fsck') {
            waits.push(
              tab.emitRawWithAck(frame.event, frame.args, 5_000).then((ack) => {
                if (ack === undefined) return;
                acks++;
                const code = (ack as { ok?: boolean; error?: { code?: string } }).error?.code;
                if (code !== undefined && !knownCodes.has(code)) {
                  strangeAcks++;
                  if (examples.length < 10)
                    examples.push(`ack for ${frame.event}: ${JSON.stringify(ack).slice(0, 200)}`);
                }
              }),
            );
          } else tab.emitRaw(frame.event, ...frame.args);
        }
        sent += burst;
        await Promise.all(waits);
        if (!tab.connected)
          await tab
            .waitFor(() => (tab.connected ? true : undefined), 'a reconnect', 30_000)
            .catch(() => undefined);
      }
      verdict.figure(
        'HTTP requests (s)',
        `${httpCount} (${Math.round((framesStarted - httpStarted) / 1000)})`,
      );
      verdict.figure(
        'WebSocket frames (s)',
        `${frameCount} (${Math.round((Date.now() - framesStarted) / 1000)})`,
      );
      verdict.figure('responses ≥ 500', serverErrors);
      verdict.figure('requests with no answer', dropped);
      verdict.figure('acks received / with an unknown error code', `${acks} / ${strangeAcks}`);
      const crashed = apis.filter((p, i) => !p.alive || p.pid !== pids[i]).map((p) => p.name);
      verdict.figure('process crashes', crashed.length);
      verdict.check(crashed.length === 0, `crashed: ${crashed.join(', ')}`);
      verdict.check(serverErrors === 0, `${serverErrors} response(s) ≥ 500`);
      verdict.check(dropped === 0, `${dropped} request(s) got no answer at all`);
      verdict.check(strangeAcks === 0, `${strangeAcks} ack(s) with an error code outside PROTOCOL.md`);
      for (const e of examples) ctx.log(`e.g. ${e}`);
      for (const api of apis) {
        const health = await request(apiUrl(cluster, api.name), 'GET', '/api/health').catch(() => ({
          status: 0,
        }));
        verdict.check(health.status === 200, `${api.name} health after the fuzz: ${health.status}`);
      }
      const audit = await TreeAudit.open(cluster.databaseUrl);
      try {
        for (const id of ids) {
          for (const p of await fsckProblems(admin, id)) verdict.check(false, p);
          for (const p of await audit.reflogProblems(id)) verdict.check(false, `${id}: ${p}`);
        }
      } finally {
        await audit.close();
      }
      verdict.figure(
        'conversations passing fsck',
        `${ids.length - verdict.notes.filter((n) => n.startsWith('fsck')).length} of ${ids.length}`,
      );
    } finally {
      for (const tab of tabs) tab.close();
    }
    return verdict.outcome();
  },
};
