import { createElicit, type Json } from '@sweatpants/domain';
import { run, type Operation } from 'effection';
import * as z from 'zod';
import { askFor, askForm } from './ask-for';
import { Agent, type ElicitInput, type Elicited } from './primitives';

/** Answers every elicit with `answer`, keeping what was asked: the person's side, in a test. */
function* answering(asked: ElicitInput[], answer: (input: ElicitInput) => Elicited): Operation<void> {
  yield* Agent.around({
    *elicit([input]) {
      asked.push(input);
      return answer(input);
    },
  });
}

const Pickup = createElicit({
  name: 'test-pickup',
  payload: z.object({ charity: z.string() }),
  content: z.object({ bags: z.number().int().min(1) }),
  actions: ['accept', 'decline', 'cancel', 'other'],
});

const Details = z.object({
  condition: z.enum(['like new', 'good', 'worn']).describe('What condition is it in?'),
  bags: z.number().int().min(1).max(10).describe('How many bags?'),
  collection: z.boolean().describe('Collected?'),
});

describe('askFor, a question of a type an app declared', () => {
  it("sends the declared type with its content's JSON schema, and hands back the typed answer", async () => {
    const asked: ElicitInput[] = [];
    const answer = await run(function* () {
      yield* answering(asked, () => ({ action: 'accept', content: { bags: 3 } }) as Elicited);
      return yield* askFor(Pickup, { message: 'Shall they collect?', payload: { charity: 'Oxfam' } });
    });
    expect(answer).toEqual({ action: 'accept', content: { bags: 3 } });
    expect(asked[0]).toMatchObject({
      type: 'test-pickup',
      message: 'Shall they collect?',
      payload: { charity: 'Oxfam' },
      schema: { type: 'object', properties: { bags: { type: 'integer', minimum: 1 } } },
    });
  });

  it('refuses a payload that does not fit the declaration before asking anything', async () => {
    const asked: ElicitInput[] = [];
    const asking = run(function* () {
      yield* answering(asked, () => ({ action: 'decline' }) as Elicited);
      return yield* askFor(Pickup, { message: 'Shall they collect?', payload: { charity: 7 } as never });
    });
    await expect(asking).rejects.toThrow();
    expect(asked).toEqual([]);
  });
});

describe('askForm, a flat form', () => {
  const ask = (content: Json, action: Elicited['action'] = 'accept') => {
    const asked: ElicitInput[] = [];
    const answer = run(function* () {
      yield* answering(asked, () => ({ action, ...(action === 'accept' ? { content } : {}) }) as Elicited);
      return yield* askForm('A little about the coat', Details);
    });
    return { asked, answer };
  };

  it('sends a form whose schema a client draws field by field', async () => {
    const { asked, answer } = ask({ condition: 'good', bags: 2, collection: false });
    expect(await answer).toEqual({
      action: 'accept',
      content: { condition: 'good', bags: 2, collection: false },
    });
    expect(asked[0]).toEqual({
      type: 'form',
      message: 'A little about the coat',
      payload: {},
      schema: {
        type: 'object',
        properties: {
          condition: {
            type: 'string',
            enum: ['like new', 'good', 'worn'],
            description: 'What condition is it in?',
          },
          bags: { type: 'integer', minimum: 1, maximum: 10, description: 'How many bags?' },
          collection: { type: 'boolean', description: 'Collected?' },
        },
        required: ['condition', 'bags', 'collection'],
        additionalProperties: false,
      },
    });
  });

  it('checks the content against the schema, since the form type leaves that to the receiver', async () => {
    expect(await ask({ condition: 'soggy', bags: 0, collection: false }).answer).toEqual({
      action: 'invalid',
      problems: [
        'condition: Invalid option: expected one of "like new"|"good"|"worn"',
        'bags: Too small: expected number to be >=1',
      ],
    });
  });

  it('passes a declined form on as declined', async () => {
    expect(await ask({}, 'decline').answer).toEqual({ action: 'decline' });
  });
});
