import * as z from 'zod';

import type { ToolSpec } from '../model';
import { inputFor, valueFor } from './input-synthesis';
import { validateJson } from './json-schema';

/** A tool as the runtime will offer it: its zod input schema through `z.toJSONSchema`, as plain JSON. */
function toolOf(name: string, input: z.ZodObject): ToolSpec {
  return {
    name,
    description: `the ${name} tool`,
    inputSchema: JSON.parse(JSON.stringify(z.toJSONSchema(input))) as ToolSpec['inputSchema'],
  };
}

const Category: z.ZodType<{ name: string; sub?: { name: string }[] }> = z.object({
  name: z.string(),
  get sub() {
    return z.array(Category).optional();
  },
});

const schemas: [string, z.ZodObject][] = [
  ['an empty object', z.object({})],
  [
    'required strings with lengths',
    z.object({ a: z.string().min(12), b: z.string().max(2), c: z.string().length(4) }),
  ],
  ['an enum and a literal', z.object({ choice: z.enum(['trash', 'keep']), kind: z.literal('item') })],
  [
    'bounded numbers',
    z.object({ n: z.int().min(3).max(5), f: z.number().gt(0).lt(1), neg: z.number().max(-2) }),
  ],
  ['positive and stepped numbers', z.object({ p: z.int().positive(), m: z.number().multipleOf(5).min(12) })],
  ['arrays with minItems', z.object({ tags: z.array(z.string()).min(2).max(4), none: z.array(z.number()) })],
  ['a tuple', z.object({ pair: z.tuple([z.string(), z.number()]) })],
  ['booleans and nulls', z.object({ done: z.boolean(), nothing: z.null(), maybe: z.string().nullable() })],
  ['nested objects', z.object({ outer: z.object({ inner: z.object({ deep: z.enum(['x', 'y']) }) }) })],
  ['a union (anyOf)', z.object({ u: z.union([z.number().min(10), z.string()]) })],
  [
    'a discriminated union (oneOf)',
    z.object({
      d: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('a'), x: z.string() }),
        z.object({ kind: z.literal('b') }),
      ]),
    }),
  ],
  ['formats zod writes patterns for', z.object({ at: z.iso.datetime(), day: z.iso.date(), t: z.iso.time() })],
  ['more formats', z.object({ mail: z.email(), id: z.uuid(), v4: z.uuidv4(), site: z.url(), ip: z.ipv4() })],
  ['string checks zod writes as allOf', z.object({ s: z.string().startsWith('a').endsWith('a') })],
  [
    'records and intersections',
    z.object({
      r: z.record(z.string(), z.number()),
      i: z.intersection(z.object({ a: z.string() }), z.object({ b: z.number() })),
    }),
  ],
  ['a recursive schema', z.object({ root: Category })],
  [
    'optional properties, left out',
    z.object({ place: z.string().optional(), note: z.string().default('x') }),
  ],
];

describe('inputFor', () => {
  it.each(schemas)('makes a valid input for %s', (_, input) => {
    const tool = toolOf('t', input);
    const value = inputFor(tool, { words: ['lamp', 'books'] });
    expect(validateJson(tool.inputSchema, value)).toEqual([]);
    // and zod, which the runtime parses tool inputs with, agrees
    expect(input.safeParse(value).success).toBe(true);
  });

  it.each(schemas)('makes a valid input for %s without hint words', (_, input) => {
    const tool = toolOf('t', input);
    expect(validateJson(tool.inputSchema, inputFor(tool))).toEqual([]);
  });

  it('fills free-text strings with the hint words, one each in turn', () => {
    const tool = toolOf('t', z.object({ item: z.string(), place: z.string(), note: z.string() }));
    expect(inputFor(tool, { words: ['lamp', 'shelf'] })).toEqual({
      item: 'lamp',
      place: 'shelf',
      note: 'lamp',
    });
  });

  it('picks the enum value the words mention, else the first', () => {
    const tool = toolOf('t', z.object({ choice: z.enum(['trash', 'keep', 'place']) }));
    expect(inputFor(tool, { words: ['lamp', 'keep'] })).toEqual({ choice: 'keep' });
    expect(inputFor(tool, { words: ['lamp'] })).toEqual({ choice: 'trash' });
  });

  it('takes named values, filling optional properties they name', () => {
    const tool = toolOf(
      't',
      z.object({ item: z.string(), place: z.string().optional(), n: z.int().optional() }),
    );
    expect(inputFor(tool, { values: { place: 'shelf', item: 'lamp' }, words: ['x'] })).toEqual({
      item: 'lamp',
      place: 'shelf',
    });
  });

  it('refuses a named value that does not fit, naming the tool and the path', () => {
    const tool = toolOf('propose_disposition', z.object({ choice: z.enum(['trash', 'keep']) }));
    expect(() => inputFor(tool, { values: { choice: 'burn' } })).toThrow(
      /cannot synthesise an input for propose_disposition: \$\.choice cannot take the hinted choice "burn"/,
    );
  });

  it('says where it cannot find a string for a pattern, and asks for a hint', () => {
    const tool = toolOf('t', z.object({ code: z.string().regex(/^[A-Z]{3}-\d{4}$/) }));
    expect(() => inputFor(tool)).toThrow(/\$\.code has no candidate string matching the pattern/);
    expect(inputFor(tool, { values: { code: 'ABC-1234' } })).toEqual({ code: 'ABC-1234' });
  });

  it('is deterministic', () => {
    const tool = toolOf('t', schemas[5]![1]);
    expect(inputFor(tool, { words: ['a', 'b'] })).toEqual(inputFor(tool, { words: ['a', 'b'] }));
  });
});

describe('valueFor', () => {
  it('works on any schema, not only a tool input', () => {
    expect(valueFor({ type: 'array', items: { type: 'integer', minimum: 2 }, minItems: 2 })).toEqual([2, 2]);
    expect(valueFor(true, { words: ['anything'] })).toBe('anything');
  });

  it('reads allOf without a type as the type its branches imply', () => {
    const schema = { allOf: [{ pattern: '^l' }, { pattern: 'p$' }] };
    expect(valueFor(schema, { words: ['books', 'lamp'] })).toBe('lamp');
  });
});
