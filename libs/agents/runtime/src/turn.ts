import type { Json } from '@sweatpants/domain';
import type { Operation } from 'effection';
import { RESPOND_TOOL, type ToolUseBlock } from './model';
import { modeOf, type AgentDefinition, type Mode, type TurnEnd } from './agent-definition';
import { waitingQuestionNote } from './aside-note';
import { Asides, Run } from './context';
import { setAsideBy, setQuestionAside } from './set-question-aside';
import { historyOf, modeStateOf } from './history';
import { OfferedTools } from './offered-tools';
import { sample } from './primitives';
import { createTool, ToolSuccess, type ModeSwitch, type Tool, type ToolOutcome } from './tool';
import { dispatch } from './tool-dispatch';

const DEFAULT_MAX_STEPS = 8;

/**
 * One turn (seed 001): mode → template → model → structured output → update. The mode is the fold
 * of the path; its template, tools and output schema make the request; tool calls run through the
 * dispatcher and the model continues with their results until it answers without a tool. A
 * transition tool ends the turn with ToolBreak: the new mode and the synthetic message that
 * starts the next turn are written together.
 *
 * @example
 * // an agent's own turn around the runtime's: the concierge's, told which card stays open
 * export function* conciergeTurn(agent: AgentDefinition): Operation<TurnEnd> {
 *   const aside = yield* Asides.expect();
 *   const card = aside ? openCardOf(aside.question) : null;
 *   return card ? yield* OpenCards.with(card, () => runTurn(agent)) : yield* runTurn(agent);
 * }
 */
export function* runTurn(agent: AgentDefinition): Operation<TurnEnd> {
  const run = yield* Run.expect();
  // In a side quest, the question the words were said at may be set aside (./set-question-aside).
  const aside = yield* Asides.expect();
  // What the side quest's model is told of that question (./aside-note).
  const notes = aside
    ? (agent.asideNote ?? waitingQuestionNote)(aside.question, run.journal.path())
    : undefined;
  const maxSteps = agent.maxSteps ?? DEFAULT_MAX_STEPS;
  for (let step = 0; step < maxSteps; step++) {
    const state = modeStateOf(agent, run.journal.path());
    const mode = modeOf(agent, state.mode);
    const offered = yield* OfferedTools.operations.offered(mode, state.data);
    const tools = [
      ...offered,
      ...(mode.output ? [respondTool(mode)] : []),
      ...(aside ? [setQuestionAside] : []),
    ];
    const sampled = yield* sample({
      system: mode.render(state.data),
      messages: historyOf(run.journal.path()),
      tools: tools.map((t) => t.spec),
      ...(notes ? { notes } : {}),
    });
    if (!sampled.ok) {
      yield* say(agent.fallbackReply(sampled.error), { fallback: sampled.error.code });
      return { kind: 'failed', code: sampled.error.code };
    }
    const uses = sampled.value.reply.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    let continues = false;
    const replies: string[] = [];
    for (const use of uses) {
      const outcome: ToolOutcome = yield* dispatch(tools, use);
      yield* setAsideBy(run, aside, use, outcome);
      if (outcome.kind === 'break') {
        yield* transition(agent, state.mode, outcome.text, outcome.next);
        return { kind: 'break', next: outcome.next };
      }
      if (outcome.kind === 'success' && outcome.reply !== undefined) replies.push(outcome.reply);
      // The model reads what every other tool returned before it finishes its answer.
      else if (use.name !== RESPOND_TOOL || outcome.kind === 'error') continues = true;
    }
    // A result that settles the turn (ToolReply) is its last word, unless another tool's result
    // is still for the model to read.
    if (replies.length > 0 && !continues) {
      yield* say(replies.join(' '), { settledBy: 'tool' });
      return { kind: 'done' };
    }
    if (!continues) return { kind: 'done' };
  }
  yield* say('I stopped there: that took more steps than one reply may. Tell me how to go on.', {
    fallback: 'max_steps',
  });
  return { kind: 'failed', code: 'max_steps' };
}

/** A reply written by the runtime itself (a fallback, a tool's settling words), recorded as the agent's. */
function* say(text: string, extra: { [key: string]: Json }): Operation<void> {
  const run = yield* Run.expect();
  if (run.journal.take('assistant', 'a reply of the runtime')) return;
  yield* run.journal.append([{ kind: 'assistant', payload: { text, ...extra }, authorId: run.authorId }]);
}

function* transition(agent: AgentDefinition, from: string, text: string, next: ModeSwitch): Operation<void> {
  const run = yield* Run.expect();
  // Fails loudly on a mode that does not exist or data that does not fit it: a bug in the tool.
  modeOf(agent, next.mode).parseData(next.data);
  if (run.journal.take('mode', `the switch to ${next.mode}`)) {
    run.journal.take('user', 'the synthetic message');
    return;
  }
  yield* run.journal.append([
    { kind: 'mode', payload: { from, to: next.mode, data: next.data }, authorId: run.authorId },
    { kind: 'user', payload: { text, synthetic: true }, authorId: run.authorId },
  ]);
}

/** The structured output's tool: its input schema is the mode's output schema. */
function respondTool(mode: Mode): Tool {
  const output = mode.output as NonNullable<Mode['output']>;
  return createTool(RESPOND_TOOL)
    .description(`Give this turn's structured output for the ${mode.name} mode. Call it once, last.`)
    .input(output.schema)
    .execute(function* (value) {
      return ToolSuccess(value as Json);
    });
}
