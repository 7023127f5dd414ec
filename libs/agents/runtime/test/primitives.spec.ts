import { createElicit, ok, type TreeNode } from '@sweatpants/domain';
import { run, spawn, type Operation } from 'effection';
import * as z from 'zod';
import type { Model, ModelReply, ModelRequest } from '../src/model';
import {
  Agent,
  askFor,
  createProtocol,
  elicit,
  log,
  Logs,
  ModelContext,
  proceed,
  ProtocolCalls,
  Questions,
  retry,
  Run,
  sample,
  SampleStages,
  createTool,
  ToolCalls,
  ToolError,
  ToolSuccess,
  type Tool,
  type ToolCallsApi,
} from '../src';
import { ElicitProtocol, Journal, silentOutbox } from '../src/host';
import { PendingElicits } from '../src/pending-elicits';
import { InMemoryConversationPort } from '../src/storage/in-memory-port';

/** A model answering from a list, recording what it was asked: enough for the pipeline's plumbing. */
function listModel(replies: string[]): Model & { asked: ModelRequest[] } {
  const asked: ModelRequest[] = [];
  return {
    kind: 'offline',
    name: 'list',
    asked,
    async complete(request) {
      asked.push(request);
      const text = replies[asked.length - 1] ?? 'out of replies';
      const reply: ModelReply = {
        content: [{ type: 'text', text }],
        stopReason: 'end_turn',
        usage: { inputTokens: 1, outputTokens: 1 },
        model: 'list',
      };
      return ok(reply);
    },
  };
}

/** Runs `body` as a turn of a fresh in-memory conversation. */
function inTurn<T>(model: Model, body: () => Operation<T>) {
  const port = new InMemoryConversationPort();
  const root = port.create('c1');
  const journal = new Journal(port, 'c1', [root]);
  const result = run(function* () {
    yield* Run.set({ conversationId: 'c1', authorId: 'agent:test', journal, outbox: silentOutbox });
    yield* ModelContext.set(model);
    return yield* body();
  });
  return { result, port, journal };
}

const request = {
  system: 'be brief',
  messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }],
  tools: [],
};

describe('middleware', () => {
  it('runs in the order of seed 004: outer max, inner max, inner min, outer min, then the core', async () => {
    const order: string[] = [];
    const mark = (name: string) => ({
      *log(
        args: [Parameters<typeof log>[0], string, Parameters<typeof log>[2]?],
        next: (...a: typeof args) => Operation<void>,
      ): Operation<void> {
        order.push(`${name} in`);
        yield* next(...args);
        order.push(`${name} out`);
      },
    });
    await run(function* () {
      yield* Agent.around(mark('outer max'), { at: 'max' });
      yield* Agent.around(mark('outer min'), { at: 'min' });
      const inner = yield* spawn(function* () {
        yield* Agent.around(mark('inner max'), { at: 'max' });
        yield* Agent.around(mark('inner min'), { at: 'min' });
        yield* Logs.set({ write: () => order.push('core') });
        yield* log('info', 'hello');
      });
      yield* inner;
    });
    expect(order).toEqual([
      'outer max in',
      'inner max in',
      'inner min in',
      'outer min in',
      'core',
      'outer min out',
      'inner min out',
      'inner max out',
      'outer max out',
    ]);
  });

  it('applies only to the scope it was installed in and its children', async () => {
    const seen: string[] = [];
    await run(function* () {
      const child = yield* spawn(function* () {
        yield* Agent.around({
          *log([, message], next) {
            seen.push(`child saw ${message}`);
            yield* next('info', message);
          },
        });
        yield* log('debug', 'inside');
      });
      yield* child;
      yield* Agent.around(
        {
          *log([, message]) {
            seen.push(`parent core ${message}`);
          },
        },
        { at: 'min' },
      );
      yield* log('debug', 'outside');
    });
    expect(seen).toEqual(['child saw inside', 'parent core outside']);
  });
});

describe('sample', () => {
  it('passes the request through input middleware (PII filtering) before the model sees it', async () => {
    const model = listModel(['ok']);
    const { result } = inTurn(model, function* () {
      yield* SampleStages.around({
        *input([req], next) {
          const redacted = JSON.parse(JSON.stringify(req).replace(/\d{3}-\d{4}/g, '[redacted]'));
          return yield* next(redacted);
        },
      });
      return yield* sample({ ...request, system: 'call 555-1234' });
    });
    expect((await result).ok).toBe(true);
    expect(model.asked[0]?.system).toBe('call [redacted]');
  });

  it('starts again from input when a later stage asks for a retry, and records each reply', async () => {
    const model = listModel(['not json', '{"a":1}']);
    const inputs: number[] = [];
    const { result, journal } = inTurn(model, function* () {
      yield* SampleStages.around({
        *input([req], next) {
          inputs.push(inputs.length + 1);
          return yield* next(req);
        },
        *output([reply, req], next) {
          const text = reply.content[0]?.type === 'text' ? reply.content[0].text : '';
          try {
            JSON.parse(text);
          } catch {
            return retry('not JSON');
          }
          return yield* next(reply, req);
        },
        *confidence([reply, metadata], next) {
          const stage = yield* next(reply, metadata);
          return stage.retry ? stage : proceed(0.9);
        },
      });
      return yield* sample(request);
    });
    const sampled = await result;
    expect(inputs).toEqual([1, 2]);
    expect(model.asked).toHaveLength(2);
    expect(sampled.ok && sampled.value).toMatchObject({ attempts: 2, confidence: 0.9 });
    expect(journal.path().map((n) => n.kind)).toEqual(['root', 'assistant', 'event', 'assistant']);
  });

  it('answers Err, not an exception, when no attempt is acceptable', async () => {
    const { result } = inTurn(listModel(['a', 'b', 'c']), function* () {
      yield* SampleStages.around({
        *output() {
          return retry('never good enough');
        },
      });
      return yield* sample(request);
    });
    expect(await result).toEqual({
      ok: false,
      error: { code: 'retries_exhausted', message: expect.any(String) },
      confidence: 0,
    });
  });

  it('answers Err with the model error, recorded so a replay takes the same path', async () => {
    const failing: Model = {
      kind: 'claude',
      name: 'x',
      complete: async () => ({ ok: false, error: { code: 'overloaded', message: '529' } }),
    };
    const { result, journal } = inTurn(failing, () => sample(request));
    expect(await result).toEqual({ ok: false, error: { code: 'overloaded', message: '529' }, confidence: 0 });
    expect((journal.path()[1] as TreeNode<'event'>).payload).toMatchObject({ type: 'model-error' });
  });

  it("aborts the model's call when the turn is halted during it, and no call that finished", async () => {
    const signals: AbortSignal[] = [];
    let called: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (called = resolve));
    const hanging: Model = {
      kind: 'claude',
      name: 'hangs on its second call',
      complete: (_request, { signal }) => {
        signals.push(signal);
        if (signals.length === 1) return listModel(['first']).complete(request, { signal });
        called();
        return new Promise((resolve) =>
          signal.addEventListener('abort', () =>
            resolve({ ok: false, error: { code: 'aborted', message: 'halted' } }),
          ),
        );
      },
    };
    const { result } = inTurn(hanging, function* () {
      yield* sample(request);
      return yield* sample(request);
    });
    await asked;
    await result.halt();
    expect(signals.map((s) => s.aborted)).toEqual([false, true]);
  });
});

describe('context', () => {
  it('can be overridden for a subtree and is restored after it (seed 004 HttpConfig)', async () => {
    const seen = await run(function* () {
      const before = (yield* Questions.expect()).timeoutMs;
      const inside = yield* Questions.with({ timeoutMs: 15_000 }, function* () {
        return (yield* Questions.expect()).timeoutMs;
      });
      const after = (yield* Questions.expect()).timeoutMs;
      return [before, inside, after];
    });
    // A question waits for its answer unless a scope gives it a deadline.
    expect(seen).toEqual([undefined, 15_000, undefined]);
  });
});

describe('protocols', () => {
  const Location = createProtocol('location', {
    getLocation: {
      args: z.object({ accuracy: z.enum(['high', 'low']) }),
      progress: z.object({ status: z.enum(['requesting-permission', 'acquiring']) }),
      returns: z.object({ lat: z.number(), lng: z.number() }),
    },
  });

  const fixed = {
    *getLocation(
      _args: { accuracy: 'high' | 'low' },
      send: (p: { status: 'requesting-permission' | 'acquiring' }) => Operation<void>,
    ) {
      yield* send({ status: 'requesting-permission' });
      yield* send({ status: 'acquiring' });
      return { lat: 52.5, lng: 13.4 };
    },
  };

  it('streams progress events and then the result', async () => {
    const events = await run(function* () {
      yield* Location.implement(fixed);
      const handle = yield* Location.attach();
      const subscription = yield* handle.invoke('getLocation', { accuracy: 'low' });
      const seen: unknown[] = [];
      for (let next = yield* subscription.next(); ; next = yield* subscription.next()) {
        seen.push(next.value);
        if (next.done) return seen;
      }
    });
    expect(events).toEqual([
      { status: 'requesting-permission' },
      { status: 'acquiring' },
      { lat: 52.5, lng: 13.4 },
    ]);
  });

  it('uses the implementation in force in the caller’s scope', async () => {
    const elsewhere = {
      *getLocation() {
        return { lat: 0, lng: 0 };
      },
    };
    const results = await run(function* () {
      yield* Location.implement(fixed);
      const inner = yield* Location.with(elsewhere, function* () {
        return yield* (yield* Location.attach()).call('getLocation', { accuracy: 'high' });
      });
      const outer = yield* (yield* Location.attach()).call('getLocation', { accuracy: 'high' });
      return [inner, outer];
    });
    expect(results).toEqual([
      { lat: 0, lng: 0 },
      { lat: 52.5, lng: 13.4 },
    ]);
  });

  it('passes every call through middleware around invoke, which sees the call, its progress and its result', async () => {
    const seen: string[] = [];
    const answer = await run(function* () {
      yield* Location.implement(fixed);
      yield* ProtocolCalls.around({
        *invoke([call, onProgress], next) {
          seen.push(`${call.protocol}.${call.method} ${JSON.stringify(call.args)}`);
          // Middleware may change what is asked: always the precise fix here.
          const result = yield* next({ ...call, args: { accuracy: 'high' } }, (progress) => {
            seen.push(`progress ${JSON.stringify(progress)}`);
            onProgress(progress);
          });
          seen.push(`result ${JSON.stringify(result)}`);
          return result;
        },
      });
      const progress: unknown[] = [];
      const where = yield* (yield* Location.attach()).call('getLocation', { accuracy: 'low' }, (p) =>
        progress.push(p),
      );
      return { where, progress };
    });
    expect(seen).toEqual([
      'location.getLocation {"accuracy":"low"}',
      'progress {"status":"requesting-permission"}',
      'progress {"status":"acquiring"}',
      'result {"lat":52.5,"lng":13.4}',
    ]);
    // The caller still gets its progress and the result.
    expect(answer).toEqual({
      where: { lat: 52.5, lng: 13.4 },
      progress: [{ status: 'requesting-permission' }, { status: 'acquiring' }],
    });
  });

  it('lets middleware answer a call itself, checked against the declaration all the same', async () => {
    const results = await run(function* () {
      yield* Location.implement(fixed);
      yield* ProtocolCalls.around(
        {
          *invoke([call], next) {
            return call.method === 'getLocation' ? { lat: 1, lng: 2 } : yield* next(call, () => undefined);
          },
        },
        { at: 'min' },
      );
      const substituted = yield* (yield* Location.attach()).call('getLocation', { accuracy: 'low' });
      return substituted;
    });
    expect(results).toEqual({ lat: 1, lng: 2 });
    await expect(
      run(function* () {
        yield* Location.implement(fixed);
        yield* ProtocolCalls.around({
          *invoke() {
            return { lat: 'here' };
          },
        });
        return yield* (yield* Location.attach()).call('getLocation', { accuracy: 'low' });
      }),
    ).rejects.toThrow(/getLocation result does not fit the declaration/);
  });

  it('refuses values that do not fit the declaration', async () => {
    const wrong = {
      *getLocation() {
        return { lat: 'north' } as unknown as { lat: number; lng: number };
      },
    };
    await expect(
      run(function* () {
        yield* Location.implement(wrong);
        return yield* (yield* Location.attach()).call('getLocation', { accuracy: 'low' });
      }),
    ).rejects.toThrow(/getLocation result does not fit the declaration: lat/);
  });
});

describe('elicit', () => {
  it('records the question and the answer, refusing an answer that does not fit its type', async () => {
    const elicits = new PendingElicits();
    const { result, journal } = inTurn(listModel([]), function* () {
      yield* ElicitProtocol.implement(elicits.implementation);
      return yield* elicit({ type: 'confirm', message: 'Done for today?', payload: { default: false } });
    });
    await new Promise((r) => setTimeout(r, 10));
    const [pending] = elicits.list();
    expect(pending).toMatchObject({ type: 'confirm', message: 'Done for today?' });
    const bad = elicits.answer({ elicitId: pending!.elicitId, action: 'accept', content: { value: 'yes' } });
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', problems: [{ field: 'content.value' }] },
    });
    expect(
      elicits.answer({ elicitId: pending!.elicitId, action: 'accept', content: { value: true } }).ok,
    ).toBe(true);
    expect(await result).toEqual({ action: 'accept', content: { value: true } });
    expect(journal.path().map((n) => n.kind)).toEqual(['root', 'elicit', 'response']);
  });

  it("refuses a form's answer that breaks a format its schema asks (an MCP server's email and date), naming the field", async () => {
    const elicits = new PendingElicits();
    const { result } = inTurn(listModel([]), function* () {
      yield* ElicitProtocol.implement(elicits.implementation);
      return yield* elicit({
        type: 'form',
        message: 'Where shall we send it?',
        payload: {},
        // as an MCP server writes it: a format with no pattern beside it, in draft-07's dialect
        schema: {
          $schema: 'http://json-schema.org/draft-07/schema#',
          type: 'object',
          properties: {
            email: { type: 'string', format: 'email' },
            from: { type: 'string', format: 'date' },
          },
          required: ['email'],
        },
      });
    });
    await new Promise((r) => setTimeout(r, 10));
    const [pending] = elicits.list();
    const id = pending!.elicitId;
    expect(
      elicits.answer({
        elicitId: id,
        action: 'accept',
        content: { email: 'not-an-email', from: '2026-02-30' },
      }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_request',
        problems: [
          { field: 'content.email', message: 'is not an email address' },
          { field: 'content.from', message: 'is not a date (YYYY-MM-DD)' },
        ],
      },
    });
    // refused, it still waits, and a fitting answer is taken
    const fits = { email: 'ines@example.com', from: '2026-02-28' };
    expect(elicits.answer({ elicitId: id, action: 'accept', content: fits }).ok).toBe(true);
    expect(await result).toEqual({ action: 'accept', content: fits });
  });

  it("hands what the person's side reports while they work on it to the asker, and records none of it", async () => {
    const elicits = new PendingElicits();
    const reported: unknown[] = [];
    const { result, journal } = inTurn(listModel([]), function* () {
      yield* ElicitProtocol.implement(elicits.implementation);
      return yield* elicit({
        type: 'confirm',
        message: 'Share where you are?',
        payload: { default: true },
        onProgress: (payload) => reported.push(payload),
      });
    });
    await new Promise((r) => setTimeout(r, 10));
    const [pending] = elicits.list();
    expect(elicits.progress(pending!.elicitId, { status: 'acquiring' }).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(reported).toEqual([{ status: 'acquiring' }]);
    elicits.answer({ elicitId: pending!.elicitId, action: 'accept', content: { value: true } });
    expect(await result).toEqual({ action: 'accept', content: { value: true } });
    expect(journal.path().map((n) => n.kind)).toEqual(['root', 'elicit', 'response']);
    expect(JSON.stringify(journal.path())).not.toContain('acquiring');
  });
});

describe('a question of a type the app created', () => {
  const Rating = createElicit({
    name: 'session-rating',
    payload: z.object({ of: z.string() }),
    content: z.object({ stars: z.number().int().min(1).max(5), why: z.string().optional() }),
    actions: ['accept', 'cancel'],
  });

  it('goes out with its content as a JSON schema, and its answer is checked like a built-in one', async () => {
    const elicits = new PendingElicits();
    const { result, journal } = inTurn(listModel([]), function* () {
      yield* ElicitProtocol.implement(elicits.implementation);
      return yield* askFor(Rating, { message: 'How was today?', payload: { of: 'today' } });
    });
    await new Promise((r) => setTimeout(r, 10));
    const [pending] = elicits.list();
    expect(pending).toMatchObject({
      type: 'session-rating',
      payload: { of: 'today' },
      schema: {
        type: 'object',
        properties: { stars: { type: 'integer', minimum: 1, maximum: 5 }, why: { type: 'string' } },
        required: ['stars'],
      },
    });
    const id = pending!.elicitId;
    // An action the type does not take, and content that does not fit, are refused; it stays pending.
    expect(elicits.answer({ elicitId: id, action: 'decline' })).toMatchObject({
      ok: false,
      error: { problems: [{ field: 'action' }] },
    });
    expect(elicits.answer({ elicitId: id, action: 'accept', content: { stars: 9 } })).toMatchObject({
      ok: false,
      error: { problems: [{ field: 'content.stars' }] },
    });
    expect(elicits.answer({ elicitId: id, action: 'accept', content: { stars: 4 } }).ok).toBe(true);
    expect(await result).toEqual({ action: 'accept', content: { stars: 4 } });
    expect(journal.path().map((n) => n.kind)).toEqual(['root', 'elicit', 'response']);
  });

  it('refuses a payload that does not fit before anything is asked, and a second type of the same name', async () => {
    const elicits = new PendingElicits();
    const { result } = inTurn(listModel([]), function* () {
      yield* ElicitProtocol.implement(elicits.implementation);
      return yield* askFor(Rating, {
        message: 'How was today?',
        payload: { of: 7 } as unknown as { of: string },
      });
    });
    await expect(result).rejects.toThrow();
    expect(elicits.list()).toEqual([]);
    expect(() => createElicit({ ...Rating, content: z.object({}) })).toThrow(
      'an elicit type named session-rating is already declared',
    );
    expect(() =>
      createElicit({ name: 'confirm', payload: z.object({}), content: z.object({}), actions: ['accept'] }),
    ).toThrow(/already declared/);
  });
});

describe('tools', () => {
  const weigh: Tool = createTool('weigh')
    .description('How heavy an item is')
    .parameter(z.object({ item: z.string() }))
    .execute(function* ({ item }) {
      return ToolSuccess({ item, kg: 2 });
    });

  it('runs through middleware around execute, at max and min, in the scope installed and below', async () => {
    const order: string[] = [];
    const mark = (name: string) => ({
      *execute([tool, input]: Parameters<ToolCallsApi['execute']>, next: ToolCallsApi['execute']) {
        order.push(`${name} ${tool.name}`);
        return yield* next(tool, input);
      },
    });
    const outcome = await run(function* () {
      yield* ToolCalls.around(mark('outer min'), { at: 'min' });
      yield* ToolCalls.around(mark('outer max'), { at: 'max' });
      const child = yield* spawn(function* () {
        yield* ToolCalls.around(mark('inner max'), { at: 'max' });
        return yield* ToolCalls.operations.execute(weigh, { item: 'lamp' });
      });
      return yield* child;
    });
    expect(outcome).toEqual(ToolSuccess({ item: 'lamp', kg: 2 }));
    expect(order).toEqual(['outer max weigh', 'inner max weigh', 'outer min weigh']);
  });

  it('lets middleware refuse a tool: the model reads the refusal as the result', async () => {
    const outcome = await run(function* () {
      yield* ToolCalls.around({
        *execute([tool, input], next) {
          return tool.name === 'weigh' ? ToolError('weighing is off in this demo') : yield* next(tool, input);
        },
      });
      return yield* ToolCalls.operations.execute(weigh, { item: 'lamp' });
    });
    expect(outcome).toEqual(ToolError('weighing is off in this demo'));
  });
});
