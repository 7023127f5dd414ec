import type { TreeNode } from '@sweatpants/domain';
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
import { OfflineModel } from '../src/offline';
import { testAgent } from '../src/testing';
import { runnerSession } from './support/runner-session';

/**
 * A person who walks away from a question and comes back types their answer to a runner rebuilt
 * from the tree (the api closes an idle one; a restart does the same). The rebuilt runner re-runs
 * its last turn and asks the same question again: the words typed the moment it opens are for that
 * question, as they were before the pause, never a message queued behind it.
 */
const askOnce = createTool('ask_once')
  .description('Ask the user one thing.')
  .parameter(z.object({}))
  .execute(function* () {
    const asked = yield* elicit({ type: 'confirm', message: 'Is it done?', payload: { default: false } });
    return ToolSuccess({ action: asked.action });
  });

const asker: AgentDefinition = {
  ...testAgent,
  name: 'asker',
  modes: [
    defineMode({
      name: 'asking',
      data: z.null(),
      template: () => prompt`Ask the user one thing.`,
      tools: () => [askOnce],
    }),
  ],
  initial: { mode: 'asking', data: null },
  state: modeReducer('asker', { mode: 'asking', data: null }),
};

const model = () =>
  new OfflineModel([
    {
      name: 'ask, then say what came back',
      when: (ctx) => ctx.offers('ask_once'),
      reply: (ctx) => {
        const result = ctx.resultOf('ask_once');
        return result ? { text: `heard: ${result.content}` } : { calls: [{ name: 'ask_once', input: {} }] };
      },
    },
  ]);

describe('words typed at a question after the runner was rebuilt', () => {
  it('answer the question asked again, and nothing waits in the queue', async () => {
    const s = runnerSession(asker, model);
    const first = await s.open();
    await first.send({ text: 'go', authorId: 'u1' });
    const [question] = await s.questions(first, 1);
    await first.close();

    const rebuilt = await s.open();
    const sent = await rebuilt.send({ text: 'yes, all done', authorId: 'u1' });
    if (!sent.ok) throw new Error(sent.error.message);
    expect(sent.value).toMatchObject({
      kind: 'response',
      payload: { elicitId: question?.elicitId, action: 'other', content: { text: 'yes, all done' } },
    });
    await rebuilt.whenIdle();

    expect(rebuilt.queued()).toEqual([]);
    const path = await s.path();
    const words = path.filter((n): n is TreeNode<'user'> => n.kind === 'user').map((n) => n.payload.text);
    expect(words).toEqual(['go']);
    expect(String(path.filter((n) => n.kind === 'assistant').at(-1)?.payload['text'])).toMatch(/^heard: /);
    expect(rebuilt.pending().map((r) => r.type)).toEqual(['chat']);
    await rebuilt.close();
  });
});
