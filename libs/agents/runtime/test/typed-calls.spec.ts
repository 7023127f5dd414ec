import { createElicit } from '@sweatpants/domain';
import { run, type Operation } from 'effection';
import * as z from 'zod';
import {
  ask,
  choose,
  createAgent,
  createTool,
  elicit,
  Err,
  Ok,
  ToolCallError,
  ToolError,
  ToolSuccess,
  type AgentToolCall,
  type AnswerOf,
} from '../src';

/**
 * The types that cross agents, as the compiler holds them: the `@ts-expect-error` lines are the
 * calls it refuses (typecheck fails if it ever accepts one), and each `Expect<Equal<…>>` pins what a
 * call answers. The runs check that the values are what the types say.
 */

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(_proof?: T): void => undefined;

/** What a tool answers, as a caller in another agent reads it: a plain interface, not JSON. */
interface Weight {
  item: string;
  kg: number;
}

const Scales = createAgent({
  weigh: createTool('weigh')
    .parameter(z.object({ item: z.string() }))
    .execute(function* ({ item }) {
      if (item === 'the moon') return Err(new Error('too heavy to weigh'));
      const weight: Weight = { item, kg: item.length / 2 };
      return Ok(weight);
    }),
  label: createTool('label')
    .parameter(z.object({ kg: z.number() }))
    .execute(function* ({ kg }) {
      if (kg < 0) return ToolError('a weight is never negative');
      if (kg > 20) return ToolSuccess({ label: 'heavy', lift: 'two people' });
      return ToolSuccess({ label: 'light', lift: null });
    }),
});

describe('types that cross agents', () => {
  it("types another agent's tool by its zod input and answers its output", async () => {
    const weight = await run(() => Scales.tools.weigh({ item: 'lamp' }));
    expectType<Equal<typeof weight, Weight>>();
    expect(weight).toEqual({ item: 'lamp', kg: 2 });
    // @ts-expect-error: the scales take an item's name, not its weight
    const refused = Scales.tools.weigh({ kg: 3 });
    await expect(run(() => refused)).rejects.toThrow('invalid input for weigh');
  });

  it('answers the union of what a tool succeeds with, and throws what it refuses', async () => {
    const label = await run(() => Scales.tools.label({ kg: 30 }));
    expectType<Equal<typeof label, { label: string; lift: string } | { label: string; lift: null }>>();
    expect(label).toEqual({ label: 'heavy', lift: 'two people' });
    await expect(run(() => Scales.tools.label({ kg: -1 }))).rejects.toBeInstanceOf(ToolCallError);
    await expect(run(() => Scales.tools.weigh({ item: 'the moon' }))).rejects.toThrow('too heavy to weigh');
  });

  it('hands an agent another’s tool without importing it, as the caller types it', async () => {
    const needsWeights: { weigh: AgentToolCall<{ item: string }, { kg: number }> } = Scales.tools;
    // @ts-expect-error: the scales answer no price
    const _pricing: { weigh: AgentToolCall<{ item: string }, { price: number }> } = Scales.tools;
    expect((await run(() => needsWeights.weigh({ item: 'book' }))).kg).toBe(2);
  });

  it('types an answer to a declared question by the declaration, asked as the seed asks it', () => {
    const Confirmation = createElicit({
      name: 'typed-calls-confirmation',
      description: 'Confirm the booking',
      input: z.object({ flightId: z.string() }),
      output: z.object({ seat: z.string() }),
    });
    function* confirm(): Operation<string> {
      const answer = yield* elicit(Confirmation, { payload: { flightId: 'FL001' } });
      expectType<Equal<typeof answer, AnswerOf<typeof Confirmation.content>>>();
      if (answer.action !== 'accept') return 'none';
      // @ts-expect-error: the answer carries a seat, not a gate
      void answer.content.gate;
      return answer.content.seat;
    }
    // @ts-expect-error: the question's input is a flight id
    void elicit(Confirmation, { payload: { flight: 1 } });
    expect(typeof confirm).toBe('function');
  });

  it("types a choice's answer by its options: ask(choose(...)) answers one of their ids", () => {
    function* where(): Operation<'keep' | 'donate'> {
      const picked = yield* ask(
        choose('Where does the coat go?', [
          { id: 'keep', label: 'Keep it' },
          { id: 'donate', label: 'Give it away' },
        ]),
      );
      expectType<Equal<typeof picked.content.choiceId, 'keep' | 'donate'>>();
      // @ts-expect-error: selling it is not one of the options
      const sold: typeof picked.content.choiceId = 'sell';
      void sold;
      return picked.content.choiceId;
    }
    expect(typeof where).toBe('function');
  });
});
