import { meantWord } from './typos';

describe('a word typed with a slip of the keys', () => {
  const words = ['kitchen', 'recycle', 'drawer', 'donate', 'keep', 'shelf'];

  it.each([
    ['kitchn', 'kitchen'],
    ['Recyle', 'recycle'],
    ['kithcen', 'kitchen'],
    ['drawr', 'drawer'],
    ['donte', 'donate'],
    ['draewr', 'drawer'],
  ])('reads %j as %j, the word it nearly is', (typed, meant) => {
    expect(meantWord(typed, words)).toBe(meant);
  });

  it.each([
    ['keys', 'a short word is as typed: keys are keys, not "keep"'],
    ['kitchen', 'a word of the vocabulary is no slip'],
    ['kettle', 'too far from any word'],
    ['shelfs', 'as near to two words as to one'],
  ])('leaves %j alone (%s)', (typed) => {
    expect(meantWord(typed, typed === 'shelfs' ? [...words, 'shells'] : words)).toBeUndefined();
  });
});
