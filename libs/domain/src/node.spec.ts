import * as z from 'zod';
import { JsonSchema, MAX_JSON_DEPTH, parseNodeDraft, toJson, toJsonObject } from './node';

describe('parseNodeDraft', () => {
  it('accepts each kind with the payload PROTOCOL.md gives it', () => {
    expect(
      parseNodeDraft({
        kind: 'user',
        payload: { text: 'hi', photos: [{ sha256: 'a'.repeat(64), mediaType: 'image/jpeg', bytes: 3 }] },
        authorId: 'u',
      }).success,
    ).toBe(true);
    expect(
      parseNodeDraft({
        kind: 'elicit',
        payload: { elicitId: 'e1', type: 'confirm', message: 'ok?', payload: { default: true } },
        authorId: 'agent:t',
      }).success,
    ).toBe(true);
    expect(
      parseNodeDraft({
        kind: 'response',
        payload: { elicitId: 'e1', action: 'accept', content: { value: true } },
        authorId: 'u',
      }).success,
    ).toBe(true);
    expect(
      parseNodeDraft({ kind: 'mode', payload: { from: null, to: 'surveying' }, authorId: 'agent:t' }).success,
    ).toBe(true);
  });

  it('names the bad fields of a payload', () => {
    const parsed = parseNodeDraft({
      kind: 'response',
      payload: { elicitId: '', action: 'maybe' },
      authorId: 'u',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.')).sort()).toEqual([
      'payload.action',
      'payload.elicitId',
    ]);
  });

  it('holds photos by reference only: a photo inline (its bytes, base64) is no node payload', () => {
    const parsed = parseNodeDraft({
      kind: 'user',
      payload: { text: 'hi', photos: [{ mediaType: 'image/jpeg', data: 'AAAA' }] },
      authorId: 'u',
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain('payload.photos.0.sha256');
  });

  it('refuses unknown kinds and missing authors', () => {
    expect(parseNodeDraft({ kind: 'comment', payload: {}, authorId: 'u' }).success).toBe(false);
    expect(parseNodeDraft({ kind: 'user', payload: { text: 'x' } }).success).toBe(false);
  });
});

describe('JsonSchema', () => {
  const nested = (levels: number): unknown => {
    let value: unknown = 'bottom';
    for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { inner: value };
    return value;
  };

  it('takes JSON nested as deep as MAX_JSON_DEPTH', () => {
    expect(JsonSchema.safeParse(nested(MAX_JSON_DEPTH)).success).toBe(true);
    expect(JsonSchema.safeParse({ a: [1, 'two', null, true, { b: {} }] }).success).toBe(true);
  });

  it('refuses deeper JSON with a plain error rather than exhausting the stack', () => {
    const parsed = JsonSchema.safeParse(nested(100_000));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(`nests deeper than ${MAX_JSON_DEPTH} levels`);
    expect(JsonSchema.safeParse(nested(MAX_JSON_DEPTH + 1)).success).toBe(false);
  });

  it('refuses what is not JSON, naming where it is', () => {
    const refusedAt = (value: unknown) => JsonSchema.safeParse(value).error?.issues.map((i) => i.path);
    expect(refusedAt({ when: new Date() })).toEqual([['when']]);
    expect(refusedAt([undefined])).toEqual([[0]]);
    expect(refusedAt({ a: undefined })).toEqual([['a']]);
    expect(refusedAt({ list: [1, { score: Number.NaN }] })).toEqual([['list', 1, 'score']]);
    expect(refusedAt([1, Number.POSITIVE_INFINITY])).toEqual([[1]]);
    // eslint-disable-next-line no-sparse-arrays
    expect(refusedAt([1, , 3])).toEqual([[1]]);
    expect(refusedAt(new Map())).toEqual([[]]);
    expect(refusedAt({ [Symbol('s')]: 1 })).toEqual([[]]);
    expect(refusedAt(() => 1)).toEqual([[]]);
    expect(refusedAt(1n)).toEqual([[]]);
    expect(
      refusedAt(
        new (class Point {
          x = 1;
        })(),
      ),
    ).toEqual([[]]);
  });

  it('becomes "any value" in JSON Schema made from a schema that holds it', () => {
    const schema = z.toJSONSchema(z.object({ answer: JsonSchema }));
    expect(schema.properties).toEqual({ answer: {} });
  });

  it('takes JSON as it is, a null-prototype object included', () => {
    const value = { a: [1, 'two', null, true, -0, { b: Object.create(null) as object }] };
    expect(JsonSchema.parse(value)).toBe(value);
  });
});

describe('toJson', () => {
  it('takes a value built as JSON as it is', () => {
    const value = { a: [1, 'two', null, true, { b: {} }] };
    expect(toJson(value)).toBe(value);
    expect(toJson('text')).toBe('text');
    expect(toJsonObject(value)).toBe(value);
  });

  it('throws for what is not JSON, saying where', () => {
    expect(() => toJson({ list: [1, { score: Number.NaN }] })).toThrow('not JSON at list.1.score');
    expect(() => toJson({ a: undefined })).toThrow('not JSON at a');
    expect(() => toJson(new Date())).toThrow('not JSON');
    expect(() => toJsonObject([1, 2])).toThrow('not a JSON object');
    expect(() => toJsonObject(null)).toThrow('not a JSON object');
  });
});
