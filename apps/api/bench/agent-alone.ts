/**
 * The agent's own share of a turn: the socket bench's session (the tidying coach, the offline
 * model, each elicit answered as the bench's tab answers it) run by a Runner on an in-memory
 * conversation, with no api, database or socket. Printed beside the socket figures, it says how
 * much of an answer's round trip is the agent's work and how much the api's.
 */
import { InMemoryConversationPort, Runner, silentOutbox } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { TIDYING_OFFLINE_RULES, tidyingAgent } from '@sweatpants/agent-tidying';
import type { ElicitRequest } from '@sweatpants/domain';
import { acceptContentFor } from '../reliability/src/support/elicit-answers';
import { percentile } from '../reliability/src/support/process-stats';

export interface InMemoryTurns {
  /** answer → next elicit, median, in ms */
  p50: number;
  /** CPU time of this process per answer, in ms */
  cpuPerTurn: number;
}

/** Answers `turns` elicits in a row (after `warm` unrecorded ones), as the socket bench's tab does. */
export async function inMemoryTurns(turns: number, warm = 5): Promise<InMemoryTurns> {
  const port = new InMemoryConversationPort();
  port.create('bench');
  let asked: ((request: ElicitRequest) => void) | undefined;
  const waiting: ElicitRequest[] = [];
  const runner = await Runner.open({
    conversationId: 'bench',
    agent: tidyingAgent,
    port,
    model: new OfflineModel(TIDYING_OFFLINE_RULES),
    logs: { write: () => undefined },
    outbox: {
      ...silentOutbox,
      elicit: (request) => (asked ? asked(request) : waiting.push(request)),
    },
  });
  const next = () =>
    new Promise<ElicitRequest>((resolve) => {
      const queued = waiting.shift();
      if (queued) return resolve(queued);
      asked = (request) => {
        asked = undefined;
        resolve(request);
      };
    });
  try {
    let elicit = runner.pending()[0] ?? (await next());
    const samples: number[] = [];
    let cpu = process.cpuUsage();
    for (let turn = 0; turn < warm + turns; turn++) {
      if (turn === warm) cpu = process.cpuUsage();
      const sent = performance.now();
      const following = next();
      const answered = await runner.respond(
        { elicitId: elicit.elicitId, action: 'accept', content: acceptContentFor(elicit, turn) },
        'bench-user',
      );
      if (!answered.ok) throw new Error(`turn ${turn}: ${answered.error.message}`);
      elicit = await following;
      if (turn >= warm) samples.push(performance.now() - sent);
    }
    const used = process.cpuUsage(cpu);
    return { p50: percentile(samples, 50), cpuPerTurn: (used.user + used.system) / 1000 / turns };
  } finally {
    await runner.close();
  }
}
