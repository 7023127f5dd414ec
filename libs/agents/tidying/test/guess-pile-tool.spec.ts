import { run } from 'effection';
import { Tidying } from '../src';

const guess = (item: string) => run(() => Tidying.tools.guessPile({ item }));

describe("the coach's guess at an item's pile, as other agents ask it", () => {
  it('keeps what has a use where it is, with giving it away as the next thought', async () => {
    expect(await guess('winter coat')).toEqual({
      item: 'winter coat',
      guess: 'place',
      label: 'Keep it here',
      pile: 'belongs',
      alternatives: ['donate', 'skip'],
    });
  });

  it('takes what is broken out, to the trash', async () => {
    expect(await guess('broken umbrella')).toMatchObject({
      guess: 'trash',
      pile: 'out',
      destination: 'trash',
    });
  });

  it('recycles paper', async () => {
    expect(await guess('letters')).toMatchObject({ guess: 'recycle', pile: 'out', destination: 'recycling' });
  });

  it('refuses a blank item with the tool error, which the calling tool may read or let through', async () => {
    await expect(guess('  ')).rejects.toMatchObject({
      name: 'ToolCallError',
      outcome: { kind: 'error', message: expect.stringMatching(/invalid input for guess_pile/) },
    });
  });
});
