import type { ElicitRequest, TreeNode } from '@sweatpants/domain';
import { all, type Operation } from 'effection';
import * as z from 'zod';
import { ask, createAgent, createTool, Run, ToolSuccess, type AgentToolCall } from '../src';
import { OfflineModel } from '../src/offline';
import { testAgent } from '../src/testing';
import { runnerSession } from './support/runner-session';

/**
 * Seed 004: "Coroutine context provides agent identity for attribution". A question another
 * agent's tool asks in this conversation is that agent's: its node is authored by it, and the
 * request says who asks (`askedBy`), on the wire and after a rebuild from the tree.
 */
const Helper = createAgent(
  {
    offer: createTool('offer')
      .parameter(z.object({ item: z.string() }))
      .execute(function* ({ item }) {
        const asked = yield* ask(
          {
            type: 'confirm',
            message: `Shall I find a place that takes the ${item}?`,
            payload: { default: false },
          },
          { value: false },
        );
        return ToolSuccess({ item, find: asked.content.value });
      }),
  },
  { ...withoutName(), name: 'helper' },
);

/** The coach is handed the helper's tool, as a program hands one agent another's. */
function coachWith(offer: AgentToolCall<{ item: string }, { item: string; find: boolean }>) {
  return createAgent(
    {},
    {
      ...withoutName(),
      name: 'coach',
      *turn(): Operation<{ kind: 'done' }> {
        const [pile, offered] = yield* all([
          ask(
            { type: 'confirm', message: 'Does the mug go in the kitchen?', payload: { default: false } },
            { value: false },
          ),
          offer({ item: 'coat' }),
        ]);
        // A last question after both: a rebuilt runner replays both answers, in the order given.
        const more = yield* ask(
          { type: 'confirm', message: 'Anything else?', payload: { default: false } },
          { value: false },
        );
        const run = yield* Run.expect();
        if (!run.journal.take('assistant', 'the reply')) {
          const text = `mug: ${pile.content.value}; coat: ${offered.find}; more: ${more.content.value}`;
          yield* run.journal.append([{ kind: 'assistant', payload: { text }, authorId: run.authorId }]);
        }
        return { kind: 'done' };
      },
    },
  );
}

function idOf(request: ElicitRequest | undefined): string {
  if (!request) throw new Error('the question is not pending');
  return request.elicitId;
}

function withoutName() {
  const { name: _name, ...definition } = testAgent;
  return definition;
}

const Coach = coachWith(Helper.tools.offer);

const session = () => runnerSession(Coach.definition, () => new OfflineModel());

describe("a question asked by another agent's tool", () => {
  it('is authored by that agent and says so; both wait at once, oldest first, and are answered in any order', async () => {
    const s = session();
    const runner = await s.open();
    await runner.send({ text: 'go', authorId: 'u1' });
    const [mine, theirs] = await s.questions(runner, 2);
    expect(mine).toMatchObject({ message: 'Does the mug go in the kitchen?', askedBy: 'coach' });
    expect(theirs).toMatchObject({ message: 'Shall I find a place that takes the coat?', askedBy: 'helper' });
    expect(s.asked.map((r) => r.askedBy)).toEqual(['coach', 'helper']);
    const elicits = (await s.path()).filter((n): n is TreeNode<'elicit'> => n.kind === 'elicit');
    expect(elicits.map((n) => n.authorId)).toEqual(['agent:coach', 'agent:helper']);

    // The helper's question first, then the coach's.
    expect(
      (await runner.respond({ elicitId: idOf(theirs), action: 'accept', content: { value: true } }, 'u1')).ok,
    ).toBe(true);
    expect(runner.pending().map((r) => r.askedBy)).toEqual(['coach']);
    expect(
      (await runner.respond({ elicitId: idOf(mine), action: 'accept', content: { value: false } }, 'u1')).ok,
    ).toBe(true);
    const [more] = await s.questions(runner, 1);
    expect(more).toMatchObject({ message: 'Anything else?', askedBy: 'coach' });
    await runner.respond({ elicitId: idOf(more), action: 'accept', content: { value: false } }, 'u1');
    await runner.whenIdle();
    const last = (await s.path()).findLast((n) => n.kind === 'assistant') as TreeNode<'assistant'>;
    expect(last.payload.text).toBe('mug: false; coat: true; more: false');
    expect(last.authorId).toBe('agent:coach');
    // At rest, the conversation waits on its own agent's chat prompt.
    expect(runner.pending()).toEqual([expect.objectContaining({ type: 'chat', askedBy: 'coach' })]);
    await runner.close();
  });

  it('is still pending, and still attributed, in a runner rebuilt from the tree', async () => {
    const s = session();
    const first = await s.open();
    await first.send({ text: 'go', authorId: 'u1' });
    const before = await s.questions(first, 2);
    await first.close();

    const rebuilt = await s.open();
    const after = await s.questions(rebuilt, 2);
    expect(after.map(({ elicitId, askedBy }) => ({ elicitId, askedBy }))).toEqual(
      before.map(({ elicitId, askedBy }) => ({ elicitId, askedBy })),
    );
    expect(after.map((r) => r.askedBy)).toEqual(['coach', 'helper']);
    await rebuilt.close();
  });

  it('replays answers given in the reverse order of the questions, in a runner rebuilt after each', async () => {
    const s = session();
    const first = await s.open();
    await first.send({ text: 'go', authorId: 'u1' });
    const [mine, theirs] = await s.questions(first, 2);
    await first.respond({ elicitId: idOf(theirs), action: 'accept', content: { value: false } }, 'u1');
    await first.close();

    // Only the coach's question is left, in a runner that replayed the helper's answer.
    const second = await s.open();
    const left = await s.questions(second, 1);
    expect(left.map(({ elicitId, askedBy }) => ({ elicitId, askedBy }))).toEqual([
      { elicitId: idOf(mine), askedBy: 'coach' },
    ]);
    await second.respond({ elicitId: idOf(mine), action: 'accept', content: { value: true } }, 'u1');
    const [more] = await s.questions(second, 1).then((p) => p.filter((r) => r.message === 'Anything else?'));
    expect(more).toBeDefined();
    await second.close();

    // Both answers recorded, the helper's first: the replay reaches the last question.
    const third = await s.open();
    const [last] = await s.questions(third, 1);
    expect(last).toMatchObject({ elicitId: idOf(more), message: 'Anything else?', askedBy: 'coach' });
    await third.respond({ elicitId: idOf(last), action: 'accept', content: { value: true } }, 'u1');
    await third.whenIdle();
    const replies = (await s.path()).filter((n): n is TreeNode<'assistant'> => n.kind === 'assistant');
    expect(replies.map((n) => n.payload.text)).toEqual(['mug: true; coat: false; more: true']);
    await third.close();
  });
});
