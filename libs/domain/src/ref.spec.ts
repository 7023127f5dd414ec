import { formatRef, parseRef } from './ref';

describe('parseRef', () => {
  it.each([
    ['HEAD', { base: { kind: 'head' }, ancestors: 0 }],
    ['HEAD~3', { base: { kind: 'head' }, ancestors: 3 }],
    ['HEAD~', { base: { kind: 'head' }, ancestors: 1 }],
    ['HEAD^^', { base: { kind: 'head' }, ancestors: 2 }],
    ['HEAD@{2}', { base: { kind: 'reflog', n: 2 }, ancestors: 0 }],
    ['HEAD@{0}~1', { base: { kind: 'reflog', n: 0 }, ancestors: 1 }],
    ['abcdef1', { base: { kind: 'prefix', prefix: 'abcdef1' }, ancestors: 0 }],
    ['a'.repeat(64), { base: { kind: 'id', id: 'a'.repeat(64) }, ancestors: 0 }],
    [' HEAD~2 ', { base: { kind: 'head' }, ancestors: 2 }],
  ])('reads %j', (text, ref) => {
    expect(parseRef(text)).toEqual({ ok: true, ref });
  });

  it.each([
    '',
    'head',
    'main',
    'abc',
    'abcdefg'.toUpperCase(),
    'HEAD@{x}',
    'HEAD~-1',
    'HEAD~1x',
    'a'.repeat(65),
    'HEAD@{99999999999}',
  ])('refuses %j with a message', (text) => {
    const parsed = parseRef(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/\S/);
  });

  it('formats what it parses back to canonical text', () => {
    for (const text of ['HEAD', 'HEAD~2', 'HEAD@{3}', 'HEAD@{1}~4', 'abcdef1~1']) {
      const parsed = parseRef(text);
      expect(parsed.ok && formatRef(parsed.ref)).toBe(text);
    }
  });
});
