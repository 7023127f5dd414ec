import type { TreeNode } from '@sweatpants/domain';
import { sleep } from 'effection';
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

/** One question, a moment's work, then another. */
const askTwice = createTool('ask_twice')
  .description('Ask the user two things.')
  .parameter(z.object({}))
  .execute(function* () {
    const first = yield* elicit({ type: 'confirm', message: 'Is it A?', payload: { default: false } });
    yield* sleep(50);
    const second = yield* elicit({ type: 'confirm', message: 'Is it B?', payload: { default: false } });
    return ToolSuccess({ first: first.action, second: second.action });
  });

const asker: AgentDefinition = {
  ...testAgent,
  name: 'asker',
  modes: [
    defineMode({
      name: 'asking',
      data: z.null(),
      template: () => prompt`Ask the user one thing.`,
      tools: () => [askOnce, askTwice],
    }),
  ],
  initial: { mode: 'asking', data: null },
  state: modeReducer('asker', { mode: 'asking', data: null }),
};

/** The model asks once ("ask"), or twice ("ask twice"), then says what came back; else it notes the words. */
const model = () =>
  new OfflineModel([
    {
      name: 'ask, then say what came back',
      when: (ctx) => ctx.offers('ask_once'),
      reply: (ctx) => {
        const result = ctx.resultOf('ask_twice') ?? ctx.resultOf('ask_once');
        if (result) return { text: `heard: ${result.content}` };
        if (!/\bask\b/.test(ctx.userText)) return { text: `noted: ${ctx.userText}` };
        return { calls: [{ name: /twice/.test(ctx.userText) ? 'ask_twice' : 'ask_once', input: {} }] };
      },
    },
  ]);

describe('words typed at a question after the runner was rebuilt', () => {
  it('answer the question asked again, and nothing waits in the queue', async () => {
    const s = runnerSession(asker, model);
    const first = await s.open();
    await first.send({ text: 'ask', authorId: 'u1' });
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
    expect(words).toEqual(['ask']);
    expect(String(path.filter((n) => n.kind === 'assistant').at(-1)?.payload['text'])).toMatch(/^heard: /);
    expect(rebuilt.pending().map((r) => r.type)).toEqual(['chat']);
    await rebuilt.close();
  });

  it('a card tapped the moment the runner is rebuilt is taken once the replay asks it again', async () => {
    const s = runnerSession(asker, model);
    const first = await s.open();
    await first.send({ text: 'ask twice', authorId: 'u1' });
    const [a] = await s.questions(first, 1);
    await first.respond({ elicitId: a!.elicitId, action: 'accept', content: { value: true } }, 'u1');
    let b = first.pending()[0];
    while (b?.message !== 'Is it B?') {
      await new Promise((resolve) => setTimeout(resolve, 5));
      b = first.pending()[0];
    }
    await first.close();

    // The replay takes A's answer from the record and works a moment before B is asked again.
    const rebuilt = await s.open();
    const tapped = await rebuilt.respond(
      { elicitId: b.elicitId, action: 'accept', content: { value: true } },
      'u1',
    );
    expect(tapped.ok).toBe(true);
    await rebuilt.whenIdle();
    expect(String((await s.path()).filter((n) => n.kind === 'assistant').at(-1)?.payload['text'])).toMatch(
      /^heard: .*"second":"accept"/,
    );
    await rebuilt.close();
  });

  it('wait for no question the rebuilt turn has already had answered', async () => {
    const s = runnerSession(asker, model);
    const first = await s.open();
    await first.send({ text: 'ask twice', authorId: 'u1' });
    const [a] = await s.questions(first, 1);
    await first.close();

    // Rebuilt, the turn asks A again and it is tapped; the words come while the turn works on.
    const rebuilt = await s.open();
    await s.questions(rebuilt, 1);
    const tapped = await rebuilt.respond(
      { elicitId: a!.elicitId, action: 'accept', content: { value: true } },
      'u1',
    );
    expect(tapped.ok).toBe(true);
    const sent = await rebuilt.send({ text: 'and another thing', authorId: 'u1' });
    if (!sent.ok) throw new Error(sent.error.message);
    expect(sent.value).toMatchObject({ kind: 'user', payload: { text: 'and another thing', queued: true } });

    const [b] = await s.questions(rebuilt, 1);
    expect(b?.message).toBe('Is it B?');
    await rebuilt.respond({ elicitId: b!.elicitId, action: 'accept', content: { value: true } }, 'u1');
    await rebuilt.whenIdle();
    const words = (await s.path())
      .filter((n): n is TreeNode<'user'> => n.kind === 'user')
      .map((n) => n.payload.text);
    expect(words).toEqual(['ask twice', 'and another thing']);
    expect(String((await s.path()).at(-1)?.payload['text'])).toBe('noted: and another thing');
    await rebuilt.close();
  });
});
