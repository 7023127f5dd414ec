import * as z from 'zod';

import { type JsonSchema, validateJson } from './json-schema';

/** The schema as the runtime will send it: zod's own JSON schema, as plain JSON. */
function schemaOf(type: z.ZodType): JsonSchema {
  return JSON.parse(JSON.stringify(z.toJSONSchema(type))) as JsonSchema;
}

const disposition = schemaOf(
  z.object({
    item: z.string().min(1),
    choice: z.enum(['trash', 'keep', 'place', 'unsure']),
    place: z.string().optional(),
    tags: z.array(z.string()).min(1).max(3),
    confidence: z.number().min(0).max(1),
    nested: z.object({ count: z.int().positive() }),
  }),
);

const valid = { item: 'lamp', choice: 'keep', tags: ['desk'], confidence: 0.5, nested: { count: 1 } };

describe('validateJson', () => {
  it('accepts a value that fits', () => {
    expect(validateJson(disposition, valid)).toEqual([]);
  });

  it.each([
    ['a missing required property', { ...valid, item: undefined }, '$.item', 'is required'],
    ['a string too short', { ...valid, item: '' }, '$.item', 'expected at least 1 characters, got 0'],
    ['a value outside the enum', { ...valid, choice: 'burn' }, '$.choice', 'expected one of "trash", "keep"'],
    ['a wrong type', { ...valid, place: 3 }, '$.place', 'expected string, got number'],
    ['too few items', { ...valid, tags: [] }, '$.tags', 'expected at least 1 items, got 0'],
    ['too many items', { ...valid, tags: ['a', 'b', 'c', 'd'] }, '$.tags', 'expected at most 3 items, got 4'],
    ['a wrong item', { ...valid, tags: ['a', 7] }, '$.tags[1]', 'expected string, got number'],
    ['a number above its maximum', { ...valid, confidence: 2 }, '$.confidence', 'expected at most 1, got 2'],
    ['a nested bound', { ...valid, nested: { count: 0 } }, '$.nested.count', 'expected more than 0, got 0'],
    ['a non-integer', { ...valid, nested: { count: 1.5 } }, '$.nested.count', 'expected integer, got number'],
    ['an extra property', { ...valid, colour: 'red' }, '$.colour', 'is not an allowed property'],
  ])('rejects %s, naming the path', (_, value, path, message) => {
    // JSON has no undefined: drop it, as JSON.stringify would
    const json = JSON.parse(JSON.stringify(value)) as typeof valid;
    const issues = validateJson(disposition, json);
    expect(issues).toEqual([expect.objectContaining({ path })]);
    expect(issues[0]!.message).toContain(message);
  });

  it('accepts one branch of a union and says when none fits', () => {
    const schema = schemaOf(z.object({ when: z.union([z.iso.date(), z.literal('today')]) }));
    expect(validateJson(schema, { when: 'today' })).toEqual([]);
    expect(validateJson(schema, { when: '2024-02-30' })[0]).toEqual({
      path: '$.when',
      message: 'matches none of the 2 alternatives',
    });
  });

  it('tells discriminated branches apart (oneOf)', () => {
    const schema = schemaOf(
      z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), x: z.string() }),
        z.object({ kind: z.literal('b') }),
      ]),
    );
    expect(validateJson(schema, { kind: 'b' })).toEqual([]);
    expect(validateJson(schema, { kind: 'a' })).toContainEqual({ path: '$.x', message: 'is required' });
  });

  it('follows $ref through recursive schemas', () => {
    const Category: z.ZodType<{ name: string; sub?: { name: string }[] }> = z.object({
      name: z.string(),
      get sub() {
        return z.array(Category).optional();
      },
    });
    const schema = schemaOf(z.object({ root: Category }));
    expect(validateJson(schema, { root: { name: 'a', sub: [{ name: 'b' }] } })).toEqual([]);
    expect(validateJson(schema, { root: { name: 'a', sub: [{}] } })).toEqual([
      { path: '$.root.sub[0].name', message: 'is required' },
    ]);
  });

  it("checks the formats an MCP server's form asks with no pattern beside them, in words", () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        born: { type: 'string', format: 'date' },
      },
    };
    expect(
      validateJson(schema, { email: 'a@b.example', site: 'https://a.example/', born: '2000-02-29' }),
    ).toEqual([]);
    expect(validateJson(schema, { email: 'nope', site: 'not a url', born: '2001-02-29' })).toEqual([
      { path: '$.email', message: 'is not an email address' },
      { path: '$.site', message: 'is not a URI' },
      { path: '$.born', message: 'is not a date (YYYY-MM-DD)' },
    ]);
  });

  it('names the issues in the order the value gives its fields, what is missing last', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { condition: { enum: ['good', 'worn'] }, bags: { type: 'integer' } },
      required: ['bags'],
      additionalProperties: false,
    };
    expect(validateJson(schema, { condition: 'soggy', colour: 'red' }).map((issue) => issue.path)).toEqual([
      '$.condition',
      '$.colour',
      '$.bags',
    ]);
  });

  it('reads a draft-07 schema as it comes, and checks nothing with a schema it cannot compile', () => {
    const draft7: JsonSchema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      required: ['name'],
    };
    expect(validateJson(draft7, {})).toEqual([{ path: '$.name', message: 'is required' }]);
    // a $ref to nowhere: an annotation it cannot read, as a keyword it does not know would be
    expect(
      validateJson({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, { a: 1 }),
    ).toEqual([]);
  });

  it('checks patterns, formats and multiples', () => {
    const schema = schemaOf(
      z.object({
        id: z.uuid(),
        site: z.url(),
        code: z.string().regex(/^[A-Z]{3}$/),
        step: z.number().multipleOf(5),
      }),
    );
    const fits = {
      id: '00000000-0000-4000-8000-000000000000',
      site: 'https://a.example/',
      code: 'ABC',
      step: 10,
    };
    expect(validateJson(schema, fits)).toEqual([]);
    const issues = validateJson(schema, { id: 'nope', site: 'not a url', code: 'abc', step: 7 });
    expect(issues.map((issue) => issue.path)).toEqual(['$.id', '$.site', '$.code', '$.step']);
  });
});
