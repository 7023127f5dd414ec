import type { Json } from '@sweatpants/domain';
import * as z from 'zod';

import { type ModelMessage, type ModelReply, type ModelRequest, RESPOND_TOOL, type ToolSpec } from '../model';
import { validateJson } from './json-schema';
import { OfflineModel } from './offline-model';
import type { OfflineRule } from './offline-rule';

function toolOf(name: string, input: z.ZodObject): ToolSpec {
  return {
    name,
    description: `the ${name} tool`,
    inputSchema: JSON.parse(JSON.stringify(z.toJSONSchema(input))) as ToolSpec['inputSchema'],
  };
}

const respond = toolOf(
  RESPOND_TOOL,
  z.object({ item: z.string().min(1), choice: z.enum(['trash', 'keep', 'unsure']) }),
);
const proposeDisposition = toolOf(
  'propose_disposition',
  z.object({ item: z.string().min(1), choices: z.array(z.enum(['trash', 'keep', 'place'])).min(2) }),
);
const queryActivities = toolOf(
  'query_activities',
  z.object({ status: z.string().optional(), limit: z.int().optional() }),
);

function user(text: string): ModelMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

function request(messages: ModelMessage[], tools: ToolSpec[] = []): ModelRequest {
  return { system: 'You are a calm tidying coach.', messages, tools };
}

const signal = (): AbortSignal => new AbortController().signal;

async function complete(model: OfflineModel, req: ModelRequest): Promise<ModelReply> {
  const result = await model.complete(req, { signal: signal() });
  if (!result.ok) throw new Error(`expected a reply, got ${result.error.code}`);
  return result.value;
}

function textOf(reply: ModelReply): string {
  return reply.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
}

function callsOf(reply: ModelReply): { name: string; input: Json }[] {
  return reply.content.flatMap((block) =>
    block.type === 'tool_use' ? [{ name: block.name, input: block.input }] : [],
  );
}

const greet: OfflineRule = {
  name: 'test: greet',
  when: (ctx) => ctx.userMentions(['hello']),
  reply: () => ({ text: 'Hello! What space are we tidying?' }),
};

describe('OfflineModel', () => {
  it('is the offline kind of model, named offline', () => {
    const model = new OfflineModel();
    expect([model.kind, model.name]).toEqual(['offline', 'offline']);
  });

  describe('rules', () => {
    it('asks the agent rules before the built-in defaults', async () => {
      const model = new OfflineModel([greet]);
      const reply = await complete(model, request([user('hello there')]));
      expect(reply.content).toEqual([{ type: 'text', text: 'Hello! What space are we tidying?' }]);
      expect(reply.stopReason).toBe('end_turn');
      expect(reply.model).toBe('offline');
    });

    it('passes to the next rule when `when` is false or the reply is undefined', () => {
      const passing: OfflineRule = { name: 'test: passes', reply: () => undefined };
      const model = new OfflineModel([passing, greet]);
      expect(model.answer(request([user('hello')])).rule).toBe('test: greet');
      expect(model.answer(request([user('the lamp')])).rule).toBe('offline default: canned reply');
    });

    it('takes the first agent rule that answers', () => {
      const second: OfflineRule = { name: 'test: second', reply: () => ({ text: 'second' }) };
      expect(new OfflineModel([greet, second]).answer(request([user('hello')])).rule).toBe('test: greet');
    });

    it('lets a rule call a tool with a synthesised input, and with text beside it', () => {
      const propose: OfflineRule = {
        name: 'test: propose',
        when: (ctx) => ctx.offers('propose_disposition'),
        reply: (ctx) => ({
          text: 'How about this one?',
          calls: [
            {
              name: 'propose_disposition',
              input: ctx.inputFor('propose_disposition', { values: { item: 'lamp' } }),
            },
          ],
        }),
      };
      const { reply } = new OfflineModel([propose]).answer(request([user('next')], [proposeDisposition]));
      expect(reply.stopReason).toBe('tool_use');
      expect(reply.content[0]).toEqual({ type: 'text', text: 'How about this one?' });
      expect(callsOf(reply)).toEqual([
        { name: 'propose_disposition', input: { item: 'lamp', choices: ['trash', 'trash'] } },
      ]);
    });

    it('synthesises the input when a rule calls a tool without one', () => {
      const propose: OfflineRule = {
        name: 'test: propose',
        reply: () => ({ calls: [{ name: 'propose_disposition' }] }),
      };
      const { reply } = new OfflineModel([propose]).answer(
        request([user('the old books')], [proposeDisposition]),
      );
      const [call] = callsOf(reply);
      expect(call).toEqual({
        name: 'propose_disposition',
        input: { item: 'old', choices: ['trash', 'trash'] },
      });
    });

    it('refuses a rule input the tool schema rejects, naming the rule, the tool and the path', () => {
      const broken: OfflineRule = {
        name: 'test: broken',
        reply: () => ({
          calls: [{ name: 'propose_disposition', input: { item: 'lamp', choices: ['burn'] } }],
        }),
      };
      const model = new OfflineModel([broken]);
      expect(() => model.answer(request([user('x')], [proposeDisposition]))).toThrow(
        'offline rule "test: broken" called propose_disposition with an invalid input: ' +
          '$.choices expected at least 2 items, got 1; $.choices[0] expected one of "trash", "keep", "place"',
      );
    });

    it('refuses a call of a tool this turn does not offer', async () => {
      const stray: OfflineRule = {
        name: 'test: stray',
        reply: () => ({ calls: [{ name: 'end_session', input: {} }] }),
      };
      await expect(
        new OfflineModel([stray]).complete(request([user('x')], [respond]), { signal: signal() }),
      ).rejects.toThrow(
        'offline rule "test: stray" called end_session, which is not offered (offered: respond)',
      );
    });

    it('refuses an empty reply: a rule that has nothing to say returns undefined', () => {
      const empty: OfflineRule = { name: 'test: empty', reply: () => ({}) };
      expect(() => new OfflineModel([empty]).answer(request([user('x')]))).toThrow(
        /"test: empty" replied with neither/,
      );
    });

    it('names the rule when it throws', () => {
      const throwing: OfflineRule = { name: 'test: throws', reply: (ctx) => ({ text: ctx.pick([]) }) };
      expect(() => new OfflineModel([throwing]).answer(request([user('x')]))).toThrow(
        'offline rule "test: throws" failed: pick needs at least one option',
      );
    });
  });

  describe('determinism', () => {
    const conversation = [
      user('the lamp and the books'),
      { role: 'assistant' as const, content: [] },
      user('keep it'),
    ];

    it('gives the same request the same reply, tool_use ids included', async () => {
      const model = new OfflineModel();
      const first = await complete(model, request(conversation, [respond]));
      const second = await complete(new OfflineModel(), request(structuredClone(conversation), [respond]));
      expect(second).toEqual(first);
      expect(callsOf(first)).toHaveLength(1);
    });

    it('names tool calls toolu_offline_<hash>, distinct within a reply', () => {
      const twice: OfflineRule = {
        name: 'test: twice',
        reply: () => ({ calls: [{ name: 'query_activities' }, { name: 'query_activities' }] }),
      };
      const { reply } = new OfflineModel([twice]).answer(request([user('x')], [queryActivities]));
      const ids = reply.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
      expect(ids).toEqual([
        expect.stringMatching(/^toolu_offline_[0-9a-f]{24}$/),
        expect.stringMatching(/^toolu_offline_/),
      ]);
      expect(new Set(ids).size).toBe(2);
    });

    it('lets replies vary from one conversation to the next', () => {
      const varied: OfflineRule = {
        name: 'test: varied',
        reply: (ctx) => ({ text: ctx.pick(['a', 'b', 'c', 'd']) }),
      };
      const model = new OfflineModel([varied]);
      const texts = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].map((word) =>
        textOf(model.answer(request([user(word)])).reply),
      );
      expect(new Set(texts).size).toBeGreaterThan(1);
    });
  });

  describe('built-in defaults', () => {
    it('without tools, says plainly it is the offline model and reflects the user’s words', async () => {
      const reply = await complete(
        new OfflineModel(),
        request([user('Where do the lamp and the books go?')]),
      );
      expect(textOf(reply)).toMatch(/^\(offline\) (I noted|Noted|Got it): lamp, books, go\. /);
      expect(textOf(reply)).toContain('no API key is configured');
      expect(reply.stopReason).toBe('end_turn');
    });

    it('counts photos it cannot see', async () => {
      const photo: ModelMessage = {
        role: 'user',
        content: [
          { type: 'image', mediaType: 'image/jpeg', sha256: 'a'.repeat(64) },
          { type: 'image', mediaType: 'image/png', sha256: 'b'.repeat(64) },
          { type: 'text', text: 'my desk' },
        ],
      };
      const reply = await complete(new OfflineModel(), request([photo]));
      expect(textOf(reply)).toContain('I received 2 photos, but the offline model cannot look at them.');
    });

    it('calls respond when it is offered, with a valid input made from the user’s words', async () => {
      const reply = await complete(
        new OfflineModel(),
        request([user('keep the lamp')], [respond, queryActivities]),
      );
      expect(reply.stopReason).toBe('tool_use');
      expect(textOf(reply)).toMatch(/^\(offline\) .*keep, lamp\.$/);
      const [call] = callsOf(reply);
      expect(call).toEqual({ name: RESPOND_TOOL, input: { item: 'keep', choice: 'keep' } });
      expect(validateJson(respond.inputSchema, call!.input)).toEqual([]);
    });

    describe('after tool results', () => {
      const called: ModelMessage = {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'query_activities', input: { status: 'quarantined' } },
        ],
      };
      const results: ModelMessage = {
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: 'toolu_1', content: '{"activities":[],"count":0}' }],
      };
      const conversation = [user('review my quarantined items'), called, results];

      it('acknowledges the results in text when respond is not offered', async () => {
        const reply = await complete(new OfflineModel(), request(conversation, [queryActivities]));
        expect(reply.content).toEqual([
          { type: 'text', text: '(offline) query_activities answered: {"activities":[],"count":0}.' },
        ]);
        expect(reply.stopReason).toBe('end_turn');
      });

      it('ends the turn through respond when it is offered, using the words the user wrote before', async () => {
        const reply = await complete(new OfflineModel(), request(conversation, [queryActivities, respond]));
        expect(callsOf(reply)).toEqual([{ name: RESPOND_TOOL, input: { item: 'review', choice: 'trash' } }]);
        expect(reply.stopReason).toBe('tool_use');
      });

      it('shows rules each result joined to its call, with JSON content parsed', () => {
        const seen: OfflineRule = {
          name: 'test: results',
          when: (ctx) => ctx.hasToolResults,
          reply: (ctx) => ({ text: JSON.stringify(ctx.resultOf('query_activities')) }),
        };
        const { reply } = new OfflineModel([seen]).answer(request(conversation, [queryActivities]));
        expect(JSON.parse(textOf(reply))).toEqual({
          toolUseId: 'toolu_1',
          name: 'query_activities',
          input: { status: 'quarantined' },
          content: '{"activities":[],"count":0}',
          data: { activities: [], count: 0 },
          isError: false,
        });
      });
    });
  });

  describe('streaming', () => {
    it('streams the text in word-sized pieces that add up to the reply text, before resolving', async () => {
      const pieces: string[] = [];
      const result = await new OfflineModel().complete(request([user('the lamp and the books')]), {
        signal: signal(),
        onText: (delta) => pieces.push(delta),
      });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(pieces.length).toBeGreaterThan(5);
      expect(pieces.join('')).toBe(textOf(result.value));
      expect(pieces.every((piece) => piece.trim().split(/\s+/).length === 1)).toBe(true);
    });

    it('answers aborted, streaming nothing, when the signal is already aborted', async () => {
      const controller = new AbortController();
      controller.abort();
      const onText = jest.fn();
      const result = await new OfflineModel().complete(request([user('x')]), {
        signal: controller.signal,
        onText,
      });
      expect(result).toEqual({ ok: false, error: { code: 'aborted', message: expect.any(String) } });
      expect(onText).not.toHaveBeenCalled();
    });

    it('answers aborted when cancelled mid-reply, and streams nothing after', async () => {
      const controller = new AbortController();
      const pieces: string[] = [];
      const result = await new OfflineModel().complete(request([user('the lamp and the books')]), {
        signal: controller.signal,
        onText: (delta) => {
          pieces.push(delta);
          // the cancel arrives from elsewhere, between words
          if (pieces.length === 2) setImmediate(() => controller.abort());
        },
      });
      expect(result.ok ? 'reply' : result.error.code).toBe('aborted');
      expect(pieces).toHaveLength(2);
    });

    it('answers aborted when cancelled after the text but before resolving a tool call', async () => {
      const controller = new AbortController();
      const callOnly: OfflineRule = {
        name: 'test: call only',
        reply: () => ({ calls: [{ name: RESPOND_TOOL }] }),
      };
      const pending = new OfflineModel([callOnly]).complete(request([user('x')], [respond]), {
        signal: controller.signal,
      });
      controller.abort();
      expect(await pending).toEqual({ ok: false, error: expect.objectContaining({ code: 'aborted' }) });
    });
  });

  describe('usage', () => {
    it('counts words in and out', () => {
      const { reply } = new OfflineModel([greet]).answer(request([user('hello there')]));
      // system (6 words) + user (2); the reply is 6 words
      expect(reply.usage).toEqual({ inputTokens: 8, outputTokens: 6 });
    });
  });
});
