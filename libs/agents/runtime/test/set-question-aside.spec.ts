import type { TreeNode } from '@sweatpants/domain';
import { all } from 'effection';
import * as z from 'zod';
import {
  createTool,
  defineMode,
  elicit,
  modeReducer,
  prompt,
  ToolSuccess,
  type AgentDefinition,
} from '../src';
import { OfflineModel, setQuestionAsideRule } from '../src/offline';
import { testAgent } from '../src/testing';
import { runnerSession } from './support/runner-session';

/**
 * "I'm done" typed at one of an agent's questions (a side quest that calls set_question_aside with
 * `all`): the question is declined, so is every other the agent waits on at that moment, and the
 * agent asks nothing more in that turn. A runner rebuilt from the tree replays the same.
 */
const confirm = (message: string) => elicit({ type: 'confirm', message, payload: { default: false } });

/** Two questions at once, then a third: what the person said to each, as the tool's result. */
const askThree = createTool('ask_three')
  .description('Ask the user three things.')
  .parameter(z.object({}))
  .execute(function* () {
    const [a, b] = yield* all([confirm('Is it A?'), confirm('Is it B?')]);
    const c = yield* confirm('Is it C?');
    return ToolSuccess({ a: a.action, b: b.action, c: c.action });
  });

const asker: AgentDefinition = {
  ...testAgent,
  name: 'asker',
  modes: [
    defineMode({
      name: 'asking',
      data: z.null(),
      template: () => prompt`Ask the user three things.`,
      tools: () => [askThree],
    }),
  ],
  initial: { mode: 'asking', data: null },
  state: modeReducer('asker', { mode: 'asking', data: null }),
};

const model = () =>
  new OfflineModel([
    setQuestionAsideRule,
    {
      name: 'ask the three, then say what came back',
      when: (ctx) => ctx.offers('ask_three'),
      reply: (ctx) => {
        const result = ctx.resultOf('ask_three');
        return result ? { text: `heard: ${result.content}` } : { calls: [{ name: 'ask_three', input: {} }] };
      },
    },
  ]);

const session = () => runnerSession(asker, model);

const said = (path: readonly TreeNode[]) =>
  path.filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text'] ?? ''));

describe("words that stop, typed at one of an agent's questions", () => {
  it('decline that question and the one waiting beside it, and the agent asks nothing more this turn', async () => {
    const s = session();
    const runner = await s.open();
    await runner.send({ text: 'go', authorId: 'u1' });
    const [a, b] = await s.questions(runner, 2);
    expect([a?.message, b?.message]).toEqual(['Is it A?', 'Is it B?']);

    await runner.respond({ elicitId: a!.elicitId, action: 'other', content: { text: "I'm done" } }, 'u1');
    await runner.whenIdle();

    // B's card went, saying why; C was never asked; the conversation waits on chat again.
    expect(s.withdrawn).toEqual([{ elicitId: b!.elicitId, reason: 'set-aside' }]);
    const path = await s.path();
    expect(path.filter((n) => n.kind === 'elicit').map((n) => n.payload['message'])).toEqual([
      'Is it A?',
      'Is it B?',
    ]);
    expect(said(path)).toContain('(offline) All right, we stop here.');
    // The words' own turn settled A (declined it), and the path says so; B was withdrawn.
    const settled = path.filter((n) => n.kind === 'event' && n.payload['type'] === 'question-settled');
    expect(settled.map((n) => [n.payload['elicitId'], n.payload['action']])).toEqual([
      [a!.elicitId, 'decline'],
    ]);
    expect(said(path).at(-1)).toBe('heard: {"a":"decline","b":"decline","c":"decline"}');
    expect(runner.pending().map((r) => r.type)).toEqual(['chat']);
    await runner.close();

    // Rebuilt from the tree, the runner replays the same turn: nothing is asked again.
    const rebuilt = await s.open();
    await rebuilt.whenIdle();
    expect(rebuilt.pending().map((r) => r.type)).toEqual(['chat']);
    expect((await s.path()).map((n) => n.id)).toEqual(path.map((n) => n.id));
    await rebuilt.close();
  });

  it('hold for that turn only: the next message is asked about again', async () => {
    const s = session();
    const runner = await s.open();
    await runner.send({ text: 'go', authorId: 'u1' });
    const [a] = await s.questions(runner, 2);
    await runner.respond({ elicitId: a!.elicitId, action: 'other', content: { text: "I'm done" } }, 'u1');
    await runner.whenIdle();

    await runner.send({ text: 'again', authorId: 'u1' });
    const asked = await s.questions(runner, 2);
    expect(asked.map((r) => r.message)).toEqual(['Is it A?', 'Is it B?']);
    await runner.close();
  });
});
