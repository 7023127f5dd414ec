import { run } from 'effection';
import { Tidying } from '../src';

const guess = (item: string) => run(() => Tidying.tools.guessPile({ item }));

describe("the coach's guess at an item's pile, as other agents ask it", () => {
  it('keeps what has a use where it is, with giving it away as the next thought', async () => {
    expect(await guess('winter coat')).toEqual({
      kind: 'success',
      value: {
        item: 'winter coat',
        guess: 'place',
        label: 'Keep it here',
        pile: 'belongs',
        alternatives: ['donate', 'skip'],
      },
    });
  });

  it('takes what is broken out, to the trash', async () => {
    expect(await guess('broken umbrella')).toMatchObject({
      kind: 'success',
      value: { guess: 'trash', pile: 'out', destination: 'trash' },
    });
  });

  it('recycles paper', async () => {
    expect(await guess('letters')).toMatchObject({
      value: { guess: 'recycle', pile: 'out', destination: 'recycling' },
    });
  });

  it('answers a blank item as a tool error the model can read, not a crash', async () => {
    expect(await guess('  ')).toMatchObject({
      kind: 'error',
      message: expect.stringMatching(/invalid input for guess_pile/),
    });
  });
});
