import { Err, Ok, run } from 'effection';
import * as z from 'zod';
import { createTool, outcomeOf, ToolBreak, ToolSuccess } from './tool';

const weigh = createTool('weigh')
  .description('How heavy an item is, in kilograms')
  .parameter(z.object({ item: z.string().min(1) }))
  .execute(function* ({ item }) {
    if (item === 'the moon') return Err(new Error('too heavy to weigh'));
    return Ok({ item, kg: 1.5 });
  });

describe('createTool', () => {
  it('describes itself to the model with its input as JSON schema', () => {
    expect(weigh.spec).toEqual({
      name: 'weigh',
      description: 'How heavy an item is, in kilograms',
      inputSchema: {
        type: 'object',
        properties: { item: { type: 'string', minLength: 1 } },
        required: ['item'],
        additionalProperties: false,
      },
    });
  });

  it("records effection's Ok as a success and Err as an error the model reads, as the seed writes tools", async () => {
    expect(await run(() => weigh.run({ item: 'a mug' }))).toEqual({
      kind: 'success',
      value: { item: 'a mug', kg: 1.5 },
    });
    expect(await run(() => weigh.run({ item: 'the moon' }))).toEqual({
      kind: 'error',
      message: 'too heavy to weigh',
    });
  });

  it('answers input the model garbled as an error naming the field, without running the tool', async () => {
    expect(await run(() => weigh.run({ item: '' }))).toEqual({
      kind: 'error',
      message: 'invalid input for weigh: item: Too small: expected string to have >=1 characters',
    });
  });

  it('keeps a ToolOutcome as it is', () => {
    const next = ToolBreak('on to the next mode', { mode: 'wrapping', data: null });
    expect(outcomeOf(next)).toBe(next);
    expect(outcomeOf(ToolSuccess(1))).toEqual({ kind: 'success', value: 1 });
  });

  it("offers a tool whose input is not an object (the seed's .parameter(z.string())) as a one-field object", async () => {
    const shout = createTool('shout')
      .description('Says it louder')
      .parameter(z.string().min(1))
      .execute(function* (words) {
        return Ok(words.toUpperCase());
      });
    // The Messages API takes only an object as a tool's input.
    expect(shout.spec.inputSchema).toEqual({
      type: 'object',
      properties: { value: { type: 'string', minLength: 1 } },
      required: ['value'],
      additionalProperties: false,
    });
    expect(await run(() => shout.run({ value: 'tidy up' }))).toEqual({ kind: 'success', value: 'TIDY UP' });
    expect(await run(() => shout.run({ value: '' }))).toEqual({
      kind: 'error',
      message: 'invalid input for shout: value: Too small: expected string to have >=1 characters',
    });
    // Code that calls it (another agent's tool) passes the value itself.
    expect(await run(() => shout.run('tidy up'))).toEqual({ kind: 'success', value: 'TIDY UP' });
    expect(await run(() => shout.run(3))).toMatchObject({ kind: 'error' });
  });
});
