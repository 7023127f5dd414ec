import type { Operation } from 'effection';
import type { AgentDefinition, TurnEnd } from './agent-definition';
import { CompactionPolicy } from './compaction-policy';
import { Asides, Logs, ModelContext, Questions, Run, SideQuests, type LogSink } from './context';
import { ElicitProtocol } from './elicit-protocol';
import type { Journal } from './journal';
import type { Model } from './model';
import type { Outbox } from './outbox';
import type { PendingElicits } from './pending-elicits';
import type { ConversationPort } from '@sweatpants/domain';
import { runTurn } from './turn';
import { StoppedAskers } from './waiting-questions';

/** Transitions in a row before the runner stops a turn chain (a model bouncing between modes). */
const MAX_CHAINED_TURNS = 5;

/** What a runner hands the operation that runs its agent on one input. */
export interface TurnChainInput {
  agent: AgentDefinition;
  conversationId: string;
  model: Model;
  port: ConversationPort;
  journal: Journal;
  outbox: Outbox;
  logs: LogSink;
  elicits: PendingElicits;
  timeoutMs: number | undefined;
  provide: (() => Operation<void>) | undefined;
}

/**
 * What runs in a runner's scope for one input of the user's: the scope's contexts (the run, the
 * model, logs, questions, how elicits reach the client, side quests), the agent's services and
 * plugins, a compaction request when the branch is due one, then the agent's turns (a mode
 * transition chains another, at most MAX_CHAINED_TURNS), ending at a stored HEAD.
 *
 * @example
 * const task = scope.run(() => turnChain({ agent, conversationId, model, port, journal, outbox, logs, elicits, timeoutMs, provide }));
 */
export function* turnChain(input: TurnChainInput): Operation<void> {
  const { agent, conversationId, model, port, journal, outbox, logs, elicits, timeoutMs, provide } = input;
  yield* Run.set({ conversationId, authorId: `agent:${agent.name}`, journal, outbox });
  yield* ModelContext.set(model);
  yield* Logs.set(logs);
  if (timeoutMs !== undefined) yield* Questions.set({ timeoutMs });
  yield* ElicitProtocol.implement(elicits.implementation);
  // An off-script answer runs one turn on the user's words below the answer (seed 004); a card
  // asked in that turn may get its own words, which run a side quest of their own.
  const turn = (): Operation<TurnEnd> => (agent.turn ? agent.turn(agent) : runTurn(agent));
  // The side quest is this agent's own turn, whoever asked the question it sets aside (the donation
  // helper's offer in the coach's conversation): what it writes is this agent's, not the asker's.
  const author = `agent:${agent.name}`;
  yield* SideQuests.set(function* (aside) {
    const run = yield* Run.expect();
    yield* Run.with({ ...run, authorId: author }, () => Asides.with(aside, turn));
  });
  if (provide) yield* provide();
  // The agent's own resources, as `yield* Agent` would start them.
  if (agent.setup) yield* agent.setup();
  for (const plugin of agent.plugins ?? []) yield* plugin.install(agent);
  if (yield* CompactionPolicy.operations.due(journal.path())) {
    // Asked at the HEAD the turn begins from once it is stored: the person's message that began
    // it lands with the turn's first write.
    void journal
      .writeSoon()
      .then(() => port.requestCompaction({ conversationId, head: journal.durableHead }))
      .catch(() => undefined);
  }
  for (let chained = 0; chained < MAX_CHAINED_TURNS; chained++) {
    // Each turn begins with nobody stopped ("I'm done" holds for the turn it was said in).
    const end = yield* StoppedAskers.with(new Set(), turn);
    if (end.kind !== 'break') break;
  }
  // The turn's end is a durability point: the chat prompt that follows is asked at a stored HEAD.
  yield* journal.durable();
}
