import { extractFromWords } from '../src/offline-text';

/** What the offline rules read from a message, as the extraction tool's input. */
const read = (text: string, phase = 'sorting') => extractFromWords(text, phase);

describe("the offline rules' reading of a message", () => {
  it.each([['wait, what is the weather like today?'], ["what's the time?"], ['hello'], ['thanks!'], ['hmm']])(
    'reads %j as no item: it is not about a thing in the space',
    (text) => {
      expect(read(text)).toMatchObject({ intent: 'continue', item: null });
    },
  );

  it.each([
    ['the lamp', 'lamp'],
    ['a coffee mug', 'coffee mug'],
    ['what about the lamp?', 'lamp'],
    ['books, mugs and cables everywhere', 'books'],
  ])('still reads %j as the item %j', (text, item) => {
    expect(read(text)).toMatchObject({ item });
  });

  it('still reads where a thing goes', () => {
    expect(read('the mug goes in the kitchen')).toMatchObject({
      item: 'mug',
      choice: 'place',
      place: 'kitchen',
    });
  });
});
