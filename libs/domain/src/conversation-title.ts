/** The longest title taken from a first message, '…' included: a list row's worth of words. */
export const DERIVED_TITLE_LENGTH = 60;

/** Trailing punctuation that would dangle before the '…' of a cut title. */
const DANGLING = /[\s.,;:!?\-–—]+$/u;

/**
 * The title a conversation takes from the user's first words: the first line that says something,
 * its whitespace collapsed, cut at a word boundary to at most `max` characters ending in '…'.
 * Returns '' when the text says nothing (a photo-only message), so the conversation stays untitled
 * until a message with words comes. Lengths count code points, so a cut never splits an emoji.
 *
 * @example titleFromText('Help me sort\nthe garage') === 'Help me sort'
 */
export function titleFromText(text: string, max = DERIVED_TITLE_LENGTH): string {
  const line =
    text
      .split(/\r\n|\r|\n/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .find((l) => l.length > 0) ?? '';
  const chars = Array.from(line);
  if (chars.length <= max) return line;
  // One character is kept for the '…'. The cut is at the last space in reach, unless that would
  // throw away more than half the room (one very long word): then the word itself is cut.
  const room = Math.max(1, max - 1);
  const space = chars[room] === ' ' ? room : chars.lastIndexOf(' ', room - 1);
  const end = space >= room / 2 ? space : room;
  const kept = chars.slice(0, end).join('').replace(DANGLING, '');
  return `${kept || chars.slice(0, room).join('')}…`;
}
