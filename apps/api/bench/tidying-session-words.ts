/**
 * What the person says in the Claude benches' tidying session: the desk first (with a photo where
 * the bench sends one), then one item a turn, cycled. Both benches walk the same session, so their
 * figures are of the same thing.
 */
export const FIRST_WORDS = 'My desk is covered in mugs, papers and a lamp';

const ITEMS = [
  'a mug',
  'some papers',
  'a phone charger',
  'a sweater',
  'a book',
  'a bottle',
  'a pen',
  'a toy car',
];

/** The words of turn `turn` (1-based). */
export function wordsOfTurn(turn: number): string {
  return turn === 1 ? FIRST_WORDS : (ITEMS[turn % ITEMS.length] as string);
}
