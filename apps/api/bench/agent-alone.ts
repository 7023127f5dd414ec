/**
 * The agent's own share of a turn: the socket bench's session (the tidying coach, the offline
 * model, each elicit answered as the bench's tab answers it) run by a Runner on an in-memory
 * conversation, with no api, database or socket. Printed beside the socket figures, it says how
 * much of an answer's round trip is the agent's work and how much the api's. It is run in blocks
 * between the api's, so that a machine slower in one part of the run weighs on both alike.
 */
import { InMemoryConversationPort, Runner, silentOutbox } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { TIDYING_OFFLINE_RULES, tidyingAgent } from '@sweatpants/agent-tidying';
import type { ElicitRequest } from '@sweatpants/domain';
import { acceptContentFor } from '../reliability/src/support/elicit-answers';

/** The same session's agent alone, answered a block of turns at a time between the api's blocks. */
export interface AgentAlone {
  /** Answers the next `count` elicits: each one's answer → next elicit in ms, and the CPU they took. */
  turns(count: number): Promise<{ samples: number[]; cpuMs: number }>;
  close(): Promise<void>;
}

/** Opens the session and answers `warm` elicits unrecorded, as the socket bench's tab would. */
export async function openAgentAlone(warm = 5): Promise<AgentAlone> {
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
  let elicit = runner.pending()[0] ?? (await next());
  let turn = 0;
  const answer = async (): Promise<number> => {
    const sent = performance.now();
    const following = next();
    const answered = await runner.respond(
      { elicitId: elicit.elicitId, action: 'accept', content: acceptContentFor(elicit, turn) },
      'bench-user',
    );
    if (!answered.ok) throw new Error(`turn ${turn}: ${answered.error.message}`);
    elicit = await following;
    turn++;
    return performance.now() - sent;
  };
  try {
    for (let i = 0; i < warm; i++) await answer();
  } catch (error) {
    await runner.close();
    throw error;
  }
  return {
    async turns(count) {
      const samples: number[] = [];
      const cpu = process.cpuUsage();
      for (let i = 0; i < count; i++) samples.push(await answer());
      const used = process.cpuUsage(cpu);
      return { samples, cpuMs: (used.user + used.system) / 1000 };
    },
    close: () => runner.close(),
  };
}
