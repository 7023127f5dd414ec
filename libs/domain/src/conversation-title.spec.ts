import { DERIVED_TITLE_LENGTH, titleFromText } from './conversation-title';
import { MAX_TITLE_LENGTH } from './wire/conversation-api';

describe('titleFromText', () => {
  it('keeps a short message as it is', () => {
    expect(titleFromText('Help me sort the garage')).toBe('Help me sort the garage');
  });

  it('takes the first line that says something, its whitespace collapsed', () => {
    expect(titleFromText('\n   \n  Sort\tthe   desk  \nthen the shelf')).toBe('Sort the desk');
    expect(titleFromText('one\r\ntwo')).toBe('one');
  });

  it('is empty when there are no words (a photo-only message)', () => {
    expect(titleFromText('')).toBe('');
    expect(titleFromText(' \n\t ')).toBe('');
  });

  it('cuts a long line at a word boundary, with an ellipsis, within the limit', () => {
    const text = 'My desk is covered in mugs, papers, a lamp, three chargers and a plant that needs water';
    const title = titleFromText(text);
    expect(title).toBe('My desk is covered in mugs, papers, a lamp, three chargers…');
    expect(Array.from(title).length).toBeLessThanOrEqual(DERIVED_TITLE_LENGTH);
    expect(text.startsWith(title.slice(0, -1))).toBe(true);
  });

  it('drops punctuation left dangling before the ellipsis', () => {
    expect(titleFromText('aaaa bbbb, cccc dddd', 12)).toBe('aaaa bbbb…');
  });

  it('keeps a line exactly at the limit whole, and cuts at a space just past it', () => {
    const exact = 'x'.repeat(DERIVED_TITLE_LENGTH);
    expect(titleFromText(exact)).toBe(exact);
    expect(titleFromText('abcd efgh ijkl', 9)).toBe('abcd…');
    expect(titleFromText('abcdefgh ijkl', 9)).toBe('abcdefgh…');
  });

  it('cuts inside a word too long to cut at a boundary', () => {
    const title = titleFromText(`a ${'z'.repeat(100)}`);
    expect(title).toBe(`a ${'z'.repeat(DERIVED_TITLE_LENGTH - 3)}…`);
    expect(title).toHaveLength(DERIVED_TITLE_LENGTH);
  });

  it('never splits an emoji', () => {
    const title = titleFromText('🧦'.repeat(80));
    expect(Array.from(title)).toHaveLength(DERIVED_TITLE_LENGTH);
    expect(title.endsWith('🧦…')).toBe(true);
  });

  it('fits the title a conversation may have', () => {
    expect(DERIVED_TITLE_LENGTH).toBeLessThanOrEqual(MAX_TITLE_LENGTH);
  });
});
