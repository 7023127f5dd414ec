import { createElicit, ok, type TreeNode } from '@sweatpants/domain';
import { run, type Operation } from 'effection';
import * as z from 'zod';
import type { Model, ModelReply, ModelRequest } from '../src/model';
import {
  around,
  ask,
  choose,
  createProtocol,
  elicit,
  ModelContext,
  notify,
  ProtocolDenied,
  Run,
  sample,
} from '../src';
import { ElicitProtocol, Journal, silentOutbox, type Outbox } from '../src/host';
import { PendingElicits } from '../src/pending-elicits';
import { InMemoryConversationPort } from '../src/storage/in-memory-port';

/**
 * Seed 004's forms of the primitives and protocols, as they behave (test/seed-snippets.spec.ts
 * checks that the seed's text compiles): a prompt sampled beside the conversation, progress as a
 * fraction, a question asked by its declared type, a protocol declared by its spec alone and
 * invoked for an answer that may be a refusal.
 */

/** A model that answers "Tokyo, Friday", recording what it was asked. */
function answering(): Model & { asked: ModelRequest[] } {
  const asked: ModelRequest[] = [];
  return {
    kind: 'offline',
    name: 'fixed',
    asked,
    async complete(request) {
      asked.push(request);
      const reply: ModelReply = {
        content: [{ type: 'text', text: 'Tokyo, Friday' }],
        stopReason: 'end_turn',
        usage: { inputTokens: 1, outputTokens: 1 },
        model: 'fixed',
      };
      return ok(reply);
    },
  };
}

/** Runs `body` as a turn of a fresh in-memory conversation. */
function inTurn<T>(model: Model, body: () => Operation<T>, outbox: Outbox = silentOutbox) {
  const port = new InMemoryConversationPort();
  const journal = new Journal(port, 'c1', [port.create('c1')]);
  const result = run(function* () {
    yield* Run.set({ conversationId: 'c1', authorId: 'agent:test', journal, outbox });
    yield* ModelContext.set(model);
    return yield* body();
  });
  return { result, journal };
}

describe("seed 004's forms", () => {
  it('samples one prompt beside the conversation, through middleware that sees the prompt', async () => {
    const model = answering();
    const { result, journal } = inTurn(model, function* () {
      yield* around(
        {
          *sample([asked], next) {
            if (asked.prompt === undefined) return yield* next(asked);
            return yield* next({ ...asked, prompt: asked.prompt.replace('Ada Lovelace', '[name]') });
          },
        },
        { at: 'max' },
      );
      return yield* sample({
        prompt: 'Extract destination and date from: Ada Lovelace, to Tokyo',
        maxTokens: 150,
      });
    });
    const sampled = await result;
    expect(sampled).toMatchObject({ ok: true, confidence: 1 });
    expect(model.asked[0]).toMatchObject({
      messages: [
        {
          role: 'user',
          content: [{ type: 'text', text: 'Extract destination and date from: [name], to Tokyo' }],
        },
      ],
      tools: [],
      maxTokens: 150,
    });
    // kept out of the model's history and the chat, as every side call is
    const [, reply] = journal.path() as [TreeNode, TreeNode<'assistant'>];
    expect(reply.payload).toMatchObject({ text: 'Tokyo, Friday', purpose: 'prompt' });
  });

  it('tells the person how far a tool has got as a fraction', async () => {
    const notices: { progress?: number; total?: number }[] = [];
    const outbox: Outbox = { ...silentOutbox, notify: (notice) => notices.push(notice) };
    const { result, journal } = inTurn(answering(), () => notify('Processing...', 0.5), outbox);
    await result;
    expect(notices).toMatchObject([{ message: 'Processing...', progress: 0.5 }]);
    expect(journal.path()[1]?.payload).toEqual({ message: 'Processing...', progress: 0.5 });
  });

  it('asks a declared question by its type alone, its description the message', async () => {
    const Confirmation = createElicit({
      name: 'seed-forms-confirmation',
      description: 'Book flight FL001?',
      input: z.object({}),
      output: z.object({ confirmed: z.boolean() }),
      actions: ['accept', 'decline', 'cancel'],
    });
    const elicits = new PendingElicits();
    const { result } = inTurn(answering(), function* () {
      yield* ElicitProtocol.implement(elicits.implementation);
      return yield* elicit(Confirmation);
    });
    await new Promise((r) => setTimeout(r, 10));
    const [pending] = elicits.list();
    expect(pending).toMatchObject({
      type: 'seed-forms-confirmation',
      message: 'Book flight FL001?',
      payload: {},
    });
    expect(elicits.answer({ elicitId: pending?.elicitId ?? '', action: 'decline' }).ok).toBe(true);
    expect(await result).toEqual({ action: 'decline' });
  });

  it('invokes a protocol declared by its spec for an answer: the result, or the refusal', async () => {
    const LocationProtocol = createProtocol({
      getLocation: {
        args: z.object({ accuracy: z.enum(['high', 'low']) }),
        progress: z.object({ status: z.enum(['requesting-permission', 'acquiring']) }),
        returns: z.object({ lat: z.number(), lng: z.number() }),
      },
    });
    const answers = await run(function* () {
      const granted = yield* LocationProtocol.with(
        {
          *getLocation(_args, send) {
            yield* send({ status: 'acquiring' });
            return { lat: 52.5, lng: 13.4 };
          },
        },
        function* () {
          const handle = yield* LocationProtocol.attach();
          return yield* handle.invoke({ name: 'getLocation', args: { accuracy: 'low' } });
        },
      );
      const denied = yield* LocationProtocol.with(
        {
          *getLocation() {
            throw new ProtocolDenied('the browser was not allowed to say where');
          },
        },
        function* () {
          const handle = yield* LocationProtocol.attach();
          return yield* handle.invoke({ name: 'getLocation', args: { accuracy: 'low' } });
        },
      );
      return { granted, denied };
    });
    expect(answers).toEqual({
      granted: { action: 'accept', content: { lat: 52.5, lng: 13.4 } },
      denied: { action: 'denied', reason: 'the browser was not allowed to say where' },
    });
    expect(LocationProtocol.name).toMatch(/^getLocation#\d+$/);
  });

  it('answers a choice with one of its options, and an id it never offered with the fallback', async () => {
    const elicits = new PendingElicits();
    const { result } = inTurn(answering(), function* () {
      yield* ElicitProtocol.implement(elicits.implementation);
      const options = [
        { id: 'keep', label: 'Keep it' },
        { id: 'donate', label: 'Give it away' },
      ] as const;
      const first = yield* ask(choose('Where does the coat go?', options));
      const second = yield* ask(choose('And the lamp?', options), { choiceId: 'keep' });
      return [first.content.choiceId, second.content.choiceId, second.fallback];
    });
    const answer = async (choiceId: string) => {
      await new Promise((r) => setTimeout(r, 10));
      const [pending] = elicits.list();
      expect(pending?.payload).not.toHaveProperty('ids');
      expect(
        elicits.answer({ elicitId: pending?.elicitId ?? '', action: 'accept', content: { choiceId } }).ok,
      ).toBe(true);
    };
    await answer('donate');
    await answer('sell');
    expect(await result).toEqual(['donate', 'keep', true]);
  });

  it('asks with no fallback of its own: the accepted content, or none when the person declines', async () => {
    const elicits = new PendingElicits();
    const { result } = inTurn(answering(), function* () {
      yield* ElicitProtocol.implement(elicits.implementation);
      const question = { type: 'confirm', message: 'Done for today?', payload: { default: false } } as const;
      const first = yield* ask(question);
      const second = yield* ask(question);
      return [first, second].map((asked) => ({ content: asked.content, fallback: asked.fallback }));
    });
    const answer = async (
      response: { action: 'accept'; content: { value: boolean } } | { action: 'decline' },
    ) => {
      await new Promise((r) => setTimeout(r, 10));
      const [pending] = elicits.list();
      expect(elicits.answer({ elicitId: pending?.elicitId ?? '', ...response }).ok).toBe(true);
    };
    await answer({ action: 'accept', content: { value: true } });
    await answer({ action: 'decline' });
    expect(await result).toEqual([
      { content: { value: true }, fallback: false },
      { content: undefined, fallback: true },
    ]);
  });
});
