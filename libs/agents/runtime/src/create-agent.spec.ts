import type { TreeNode } from '@sweatpants/domain';
import { Ok, resource, run, spawn, type Operation } from 'effection';
import * as z from 'zod';
import { testAgent } from './testing/test-agent';
import {
  CompactionPolicy,
  compactAfter,
  DEFAULT_COMPACT_AFTER,
  DEFAULT_SUMMARY_INSTRUCTIONS,
  summariseAs,
  summaryInstructions,
  summaryPolicy,
} from './compaction-policy';
import { createAgent, ToolCallError } from './create-agent';
import { OfflineModel } from './offline';
import { Runner } from './runner';
import { InMemoryConversationPort } from './storage/in-memory-port';
import { createTool, ToolSuccess } from './tool';
import { ToolCalls } from './tool-dispatch';

const { name: _name, ...definition } = testAgent;

/** A flight search whose results come from the instance's own (per-scope) database. */
function flights(db: { routes: string[] }) {
  return createTool('search')
    .description('Flights to a city')
    .parameter(z.object({ to: z.string() }))
    .execute(function* ({ to }) {
      return ToolSuccess(db.routes.filter((r) => r.endsWith(to)));
    });
}

const opened: string[] = [];
const Flight = createAgent(
  { search: flights({ routes: ['LHR-BER', 'LHR-CDG'] }) },
  {
    ...definition,
    name: 'flight',
    *setup() {
      // A resource of the instance: it lives as long as the scope that started the agent.
      yield* resource<void>(function* (provide) {
        opened.push('connection opened');
        try {
          yield* provide();
        } finally {
          opened.push('connection closed');
        }
      });
    },
  },
);

/** An agent whose tool calls another agent's tool, not knowing which instance answers. */
const Chat = createAgent(
  {
    book: createTool('book')
      .parameter(z.object({ to: z.string() }))
      .execute(function* ({ to }) {
        const found = yield* Flight.tools.search({ to });
        return ToolSuccess({ booked: found });
      }),
  },
  { ...definition, name: 'chat' },
);

describe('createAgent', () => {
  beforeEach(() => opened.splice(0));

  it('starts with yield*: its setup runs in the caller’s scope, and the instance is in context below', async () => {
    const result = await run(function* () {
      const instance = yield* Flight;
      expect(instance.agent).toBe('flight');
      expect(yield* Flight.instance()).toBe(instance);
      expect(opened).toEqual(['connection opened']);
      return yield* Flight.tools.search({ to: 'BER' });
    });
    expect(result).toEqual(['LHR-BER']);
    expect(opened).toEqual(['connection opened', 'connection closed']);
  });

  it('starts itself at a tool call when none was started (implicit): its setup runs once, in the caller’s scope', async () => {
    const result = await run(function* () {
      const first = yield* Flight.tools.search({ to: 'CDG' });
      const second = yield* Flight.tools.search({ to: 'BER' });
      expect(opened).toEqual(['connection opened']);
      return [first, second];
    });
    expect(result).toEqual([['LHR-CDG'], ['LHR-BER']]);
    expect(opened).toEqual(['connection opened', 'connection closed']);
  });

  it('runs its setup at each turn a runner drives, before the turn', async () => {
    const Counted = createAgent(
      {},
      {
        ...definition,
        name: 'counted',
        *setup() {
          opened.push('setup');
        },
      },
    );
    const port = new InMemoryConversationPort();
    port.create('c1');
    const runner = await Runner.open({
      conversationId: 'c1',
      agent: Counted.definition,
      port,
      model: new OfflineModel(),
    });
    try {
      await runner.send({ text: 'hello', authorId: 'user:1' });
      await runner.whenIdle();
      expect(opened).toEqual(['setup']);
      await runner.send({ text: 'again', authorId: 'user:1' });
      await runner.whenIdle();
      expect(opened).toEqual(['setup', 'setup']);
    } finally {
      await runner.close();
    }
  });

  it('is its tools alone when that is all it needs, as the seed writes it', async () => {
    const Booking = createAgent({
      bookFlight: createTool('book-flight')
        .description('Search for a flight and book it')
        .parameter(z.string().describe('Description of a trip'))
        .execute(function* (trip) {
          return Ok({ booked: trip });
        }),
    });
    expect(Booking.name).toBe('book-flight');
    expect(Booking.definition.modes.map((m) => m.name)).toEqual(['tools']);
    expect(Booking.definition.modes[0]?.tools(null).map((t) => t.name)).toEqual(['book-flight']);
    expect(await run(() => Booking.tools.bookFlight('Leeds to Berlin, Friday'))).toEqual({
      booked: 'Leeds to Berlin, Friday',
    });
  });

  it("lets one agent's tool call another's, and a parent choose which instance its children reach", async () => {
    const results = await run(function* () {
      const real = yield* Chat.tools.book({ to: 'BER' });
      // For this subtree (a test, a per-user binding) another instance answers for Flight.
      const substitute = { agent: 'flight', tools: { search: flights({ routes: ['MAN-BER', 'EDI-BER'] }) } };
      const substituted = yield* Flight.with(substitute, function* () {
        const child = yield* spawn(() => Chat.tools.book({ to: 'BER' }));
        return yield* child;
      });
      const after = yield* Chat.tools.book({ to: 'BER' });
      return { real, substituted, after };
    });
    expect(results).toEqual({
      real: { booked: ['LHR-BER'] },
      substituted: { booked: ['MAN-BER', 'EDI-BER'] },
      after: { booked: ['LHR-BER'] },
    });
  });

  it('sends each tool call through ToolCalls middleware, and checks its input', async () => {
    const seen: string[] = [];
    const failed = run(function* () {
      yield* ToolCalls.around({
        *execute([tool, input], next) {
          seen.push(`${tool.name} ${JSON.stringify(input)}`);
          return yield* next(tool, input);
        },
      });
      yield* Chat.tools.book({ to: 'CDG' });
      // @ts-expect-error: the search takes a city's name
      return yield* Flight.tools.search({ to: 7 });
    });
    await expect(failed).rejects.toThrow(ToolCallError);
    await expect(failed).rejects.toThrow('invalid input for search');
    expect(seen).toEqual(['book {"to":"CDG"}', 'search {"to":"CDG"}', 'search {"to":7}']);
  });

  it('throws ToolCallError with the outcome when a substitute lacks the tool', async () => {
    const failed = run(function* () {
      return yield* Flight.with({ agent: 'flight', tools: {} as never }, () =>
        Flight.tools.search({ to: 'BER' }),
      );
    });
    await expect(failed).rejects.toMatchObject({
      tool: 'search',
      outcome: { kind: 'error', message: 'flight has no tool search in this scope' },
    });
  });

  it('installs a plugin for the scope it is used in: compaction after fewer nodes, say', async () => {
    // The root, then `n` nodes since it.
    const path = (n: number) => Array.from({ length: n + 1 }, () => ({ kind: 'user' }) as TreeNode);
    const decided = await run(function* (): Operation<boolean[]> {
      const before = yield* CompactionPolicy.operations.due(path(50));
      const inner = yield* spawn(function* () {
        yield* Chat.use(compactAfter(40));
        return yield* CompactionPolicy.operations.due(path(50));
      });
      const within = yield* inner;
      const atDefault = yield* CompactionPolicy.operations.due(path(DEFAULT_COMPACT_AFTER + 1));
      return [before, within, atDefault];
    });
    expect(decided).toEqual([false, true, true]);
  });

  it("tells a summariser what the agent's own plugin says to keep, else the default", async () => {
    expect(await summaryInstructions(Chat.definition)).toBe(DEFAULT_SUMMARY_INSTRUCTIONS);
    const keeping = { ...Chat.definition, plugins: [summariseAs('Keep the bookings.'), compactAfter(5)] };
    expect(await summaryInstructions(keeping)).toBe('Keep the bookings.');
  });

  it('tells a summariser which model writes the summaries when the agent names one, else none', async () => {
    expect(await summaryPolicy(Chat.definition)).toEqual({ instructions: DEFAULT_SUMMARY_INSTRUCTIONS });
    const small = {
      ...Chat.definition,
      plugins: [summariseAs('Keep the bookings.', { model: 'claude-haiku-4-5' })],
    };
    expect(await summaryPolicy(small)).toEqual({
      instructions: 'Keep the bookings.',
      model: 'claude-haiku-4-5',
    });
  });

  it('keeps the definition a runner drives, under the agent’s name', () => {
    expect(Chat.definition).toMatchObject({ name: 'chat', modes: testAgent.modes });
    expect(Object.keys(Chat.tools)).toEqual(['book']);
  });

  it("says a call refused for the person's budget in the host's words, and its own fallback otherwise", () => {
    const refusal = 'Your daily budget is used up; it resets at midnight UTC.';
    expect(Chat.definition.fallbackReply({ code: 'over_budget', message: refusal })).toBe(refusal);
    expect(Chat.definition.fallbackReply({ code: 'overloaded', message: '529' })).toBe(
      testAgent.fallbackReply({ code: 'overloaded', message: '529' }),
    );
  });
});
