import type { Json, TreeNode } from '@sweatpants/domain';
import type { Operation } from 'effection';
import { createAgent, elicit, Run } from '../src';
import { OfflineModel } from '../src/offline';
import { Runner, silentOutbox } from '../src/host';
import { InMemoryConversationPort } from '../src/storage/in-memory-port';
import { testAgent } from '../src/testing';

/**
 * A client as quick as the question's announcement: a location card tapped the moment it shows
 * reports "acquiring" and answers before the turn holds the question. Both reach the agent.
 */
const { name: _name, ...definition } = testAgent;
const Locator = createAgent(
  {},
  {
    ...definition,
    name: 'locator',
    *turn(): Operation<{ kind: 'done' }> {
      const reported: Json[] = [];
      const answer = yield* elicit({
        type: 'location',
        message: 'Share roughly where you are?',
        payload: { accuracy: 'low' },
        onProgress: (payload) => reported.push(payload),
      });
      const run = yield* Run.expect();
      if (!run.journal.take('assistant', 'the reply')) {
        const text = `${answer.action}; the device said ${JSON.stringify(reported)}`;
        yield* run.journal.append([{ kind: 'assistant', payload: { text }, authorId: run.authorId }]);
      }
      return { kind: 'done' };
    },
  },
);

describe('a client that acts the moment a question is announced', () => {
  it('is heard: what its widget reported, then its answer', async () => {
    const port = new InMemoryConversationPort();
    port.create('c1');
    const acted: Promise<unknown>[] = [];
    const runner: Runner = await Runner.open({
      conversationId: 'c1',
      agent: Locator.definition,
      port,
      model: new OfflineModel(),
      outbox: {
        ...silentOutbox,
        // Told the question, at once, before the turn goes on to hold it.
        elicit: (request) => {
          if (request.type !== 'location') return;
          acted.push(
            runner
              .progress(request.elicitId, { status: 'acquiring' })
              .then(() =>
                runner.respond(
                  { elicitId: request.elicitId, action: 'accept', content: { lat: 51.5, lng: -0.12 } },
                  'u1',
                ),
              ),
          );
        },
      },
    });
    await runner.send({ text: 'where?', authorId: 'u1' });
    await runner.whenIdle();
    expect(await Promise.all(acted)).toEqual([expect.objectContaining({ ok: true })]);

    const read = await port.path('c1');
    if (!read.ok) throw new Error(read.error.message);
    const reply = read.value.findLast((n): n is TreeNode<'assistant'> => n.kind === 'assistant');
    expect(reply?.payload.text).toBe('accept; the device said [{"status":"acquiring"}]');
    await runner.close();
  });
});
