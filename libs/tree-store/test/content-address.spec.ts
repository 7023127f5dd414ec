import * as fc from 'fast-check';
import { canonicalJson, UnstorableContentError } from '../src/content-address';

/**
 * Canonical JSON by its definition: keys sorted at every level, undefined members left out, no
 * white space. Every stored node's id is a hash of this text, so it may never change.
 */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const storableText = fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000'));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    storableText,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(storableText, fc.option(tie('value'), { nil: undefined }), { maxKeys: 5 }),
  ),
})).value;

describe('canonical JSON (what a node id hashes)', () => {
  it('is the sorted-key JSON of any storable value, whichever order its keys were built in', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 500 },
    );
    expect(canonicalJson({ b: 1, a: [true, { d: 'x', c: null, e: undefined }] })).toBe(
      '{"a":[true,{"c":null,"d":"x"}],"b":1}',
    );
  });

  it('refuses text the database cannot store, naming where it is', () => {
    const refused = (value: unknown) => {
      try {
        canonicalJson(value);
      } catch (error) {
        if (error instanceof UnstorableContentError) return error.path;
        throw error;
      }
      return undefined;
    };
    expect(refused({ text: 'a\u0000b' })).toBe('$.text');
    expect(refused({ photos: [{ caption: 'ok' }, { caption: 'lone \uD800' }] })).toBe('$.photos[1].caption');
    expect(refused({ list: [1, Number.POSITIVE_INFINITY] })).toBe('$.list[1]');
    expect(refused({ nested: { 'bad\u0000key': 1 } })).toBe('$.nested.bad\u0000key');
    expect(refused('\uDC00')).toBe('$');
    expect(refused({ fine: ['x', { y: 2 }] })).toBeUndefined();
  });
});
