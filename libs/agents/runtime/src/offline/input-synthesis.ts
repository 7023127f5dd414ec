import type { Json } from '@sweatpants/domain';

import type { ToolSpec } from '../model';
import {
  asSchema,
  formatIssues,
  type JsonSchema,
  numberKeyword,
  propertyPath,
  resolveRef,
  schemaList,
  schemaTypes,
  validateJson,
} from './json-schema';
import { mentions } from './text';

/** What a synthesised value should say, where the schema leaves a choice. */
export interface InputHints {
  /**
   * Values for properties of these names, wherever they occur in the schema; optional properties
   * named here are filled in too. A value that does not fit its property is an error, not a
   * suggestion: it means the rule and the tool disagree.
   */
  values?: Readonly<Record<string, Json>>;
  /**
   * Words for free-text strings, used one per string in turn, and to choose among enum values
   * (the first value the words mention wins). Usually the user's keywords.
   */
  words?: readonly string[];
}

/**
 * A valid input for `tool`, synthesised from its input schema: required properties only (plus any
 * named in `hints.values`), strings from the hint words, the first enum value unless the words
 * mention another, numbers inside their bounds, arrays at their minimum length, the first
 * alternative of anyOf/oneOf that fits. Deterministic: the same schema and hints give the same value.
 * Throws when no value can be made (e.g. a pattern none of its candidates match), naming the path.
 *
 * @example inputFor(proposeDisposition, { values: { item: 'lamp' }, words: ['trash'] })
 * // { item: 'lamp', choice: 'trash' }
 */
export function inputFor(tool: ToolSpec, hints: InputHints = {}): Json {
  try {
    return valueFor(tool.inputSchema, hints);
  } catch (error) {
    throw new Error(`cannot synthesise an input for ${tool.name}: ${messageOf(error)}`, { cause: error });
  }
}

/**
 * A value valid for `schema`, made as `inputFor` makes a tool's input; for a schema that is not a
 * tool's (a form's content, say).
 *
 * @example
 * valueFor({ type: 'array', items: { type: 'integer', minimum: 2 }, minItems: 2 }); // [2, 2]
 */
export function valueFor(schema: JsonSchema, hints: InputHints = {}): Json {
  const value = new Synthesis(schema, hints).value(schema, '$', 0);
  const issues = validateJson(schema, value);
  // the synthesis checks as it goes, so this only fires on a keyword it fills in wrongly
  if (issues.length > 0) throw new Error(`synthesised an invalid value: ${formatIssues(issues)}`);
  return value;
}

/** Why a value could not be made at one place in the schema; a union tries its next branch on it. */
class SynthesisError extends Error {
  constructor(path: string, reason: string) {
    super(`${path} ${reason}`);
  }
}

/** Deep enough for any tool input; deeper means a recursive schema whose recursion is required. */
const MAX_DEPTH = 32;

/**
 * Strings tried after the hint words, so that formats and patterns zod emits (date-time, date,
 * time, email, uuid, url, ipv4) get a value that passes. Fixed values keep the model deterministic.
 */
const SHAPED_STRINGS: Readonly<Record<string, string>> = {
  'date-time': '2000-01-01T00:00:00Z',
  date: '2000-01-01',
  time: '00:00:00',
  email: 'offline@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  uri: 'https://example.com/',
  ipv4: '127.0.0.1',
  ipv6: '::1',
};

class Synthesis {
  /** which hint word the next free-text string takes */
  private cursor = 0;
  private readonly words: readonly string[];

  constructor(
    private readonly root: JsonSchema,
    private readonly hints: InputHints,
  ) {
    this.words = (hints.words ?? []).filter((word) => word.length > 0);
  }

  value(schema: JsonSchema, path: string, depth: number): Json {
    if (depth > MAX_DEPTH)
      throw new SynthesisError(path, 'nests too deep (is a recursive property required?)');
    const node = resolveRef(schema, this.root);
    if (node === false) throw new SynthesisError(path, 'allows no value');
    if (node === true) return this.text(true, path);
    if ('const' in node) return node['const'] ?? null;
    const options = node['enum'];
    if (Array.isArray(options)) return this.choose(options, node, path);
    const alternatives = [...schemaList(node['anyOf']), ...schemaList(node['oneOf'])];
    if (alternatives.length > 0) return this.firstFitting(alternatives, node, path, depth);
    if (node['allOf'] !== undefined) return this.typed(this.mergeAllOf(node, path), node, path, depth);
    return this.typed(node, node, path, depth);
  }

  /**
   * A value of one of the node's types, checked against `check` (the node before its allOf was
   * merged, so every pattern still applies). A null type is tried last: a value says more.
   */
  private typed(node: { readonly [k: string]: Json }, check: JsonSchema, path: string, depth: number): Json {
    const declared = schemaTypes(node) ?? [impliedType(node)];
    const types = [
      ...declared.filter((type) => type !== 'null'),
      ...declared.filter((type) => type === 'null'),
    ];
    const failures: string[] = [];
    for (const type of types) {
      const mark = this.cursor;
      try {
        const value = this.ofType(type, node, check, path, depth);
        const issues = validateJson(check, value, this.root, path);
        if (issues.length === 0) return value;
        failures.push(formatIssues(issues));
      } catch (error) {
        if (!(error instanceof SynthesisError)) throw error;
        // with one type to try, its own reason is the clearest message
        if (types.length === 1) throw error;
        failures.push(error.message);
      }
      this.cursor = mark;
    }
    throw new SynthesisError(path, `no value fits (${failures.join('; ')})`);
  }

  private ofType(
    type: string,
    node: { readonly [k: string]: Json },
    check: JsonSchema,
    path: string,
    depth: number,
  ): Json {
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return false;
      case 'integer':
      case 'number':
        return numberWithin(node, type === 'integer');
      case 'string':
        return this.text(check, path);
      case 'array':
        return this.array(node, path, depth);
      case 'object':
        return this.object(node, path, depth);
      default:
        throw new SynthesisError(path, `has an unknown type ${type}`);
    }
  }

  /** The first alternative that synthesises and validates against the whole node. */
  private firstFitting(branches: JsonSchema[], node: JsonSchema, path: string, depth: number): Json {
    const failures: string[] = [];
    for (const branch of branches) {
      const mark = this.cursor;
      try {
        const value = this.value(branch, path, depth + 1);
        const issues = validateJson(node, value, this.root, path);
        if (issues.length === 0) return value;
        failures.push(formatIssues(issues));
      } catch (error) {
        if (!(error instanceof SynthesisError)) throw error;
        failures.push(error.message);
      }
      this.cursor = mark;
    }
    throw new SynthesisError(path, `fits none of its alternatives (${failures.join('; ')})`);
  }

  /** The first enum value the hint words mention, else the first that fits the node. */
  private choose(options: Json[], node: JsonSchema, path: string): Json {
    const said = this.words.join(' ');
    const mentioned = options.find((option) => typeof option === 'string' && mentions(said, [option]));
    const ordered = mentioned === undefined ? options : [mentioned, ...options];
    const fitting = ordered.find((option) => validateJson(node, option, this.root, path).length === 0);
    if (fitting === undefined)
      throw new SynthesisError(path, 'has no enum value that fits its other keywords');
    return fitting;
  }

  /** The next hint word, else a value shaped for the format, else any candidate that passes `check`. */
  private text(check: JsonSchema, path: string): string {
    const node = typeof check === 'boolean' ? {} : check;
    const format = typeof node['format'] === 'string' ? SHAPED_STRINGS[node['format']] : undefined;
    const next = this.words.length > 0 ? this.words[this.cursor % this.words.length] : undefined;
    const candidates = [format, next, ...this.words, 'offline', ...Object.values(SHAPED_STRINGS), '0', 'a'];
    for (const candidate of candidates) {
      if (candidate === undefined) continue;
      const sized = fitLength(candidate, numberKeyword(node, 'minLength'), numberKeyword(node, 'maxLength'));
      if (validateJson(check, sized, this.root, path).length > 0) continue;
      if (candidate === next) this.cursor++;
      return sized;
    }
    const pattern = typeof node['pattern'] === 'string' ? ` the pattern ${node['pattern']}` : ' its keywords';
    throw new SynthesisError(
      path,
      `has no candidate string matching${pattern}; name a value for it in the hints`,
    );
  }

  private array(node: { readonly [k: string]: Json }, path: string, depth: number): Json[] {
    const prefix = schemaList(node['prefixItems']);
    const rest = asSchema(node['items']) ?? true;
    const length =
      rest === false ? prefix.length : Math.max(prefix.length, numberKeyword(node, 'minItems') ?? 0);
    return Array.from({ length }, (_, i) => this.value(prefix[i] ?? rest, `${path}[${i}]`, depth + 1));
  }

  private object(node: { readonly [k: string]: Json }, path: string, depth: number): { [key: string]: Json } {
    const properties = asSchema(node['properties']);
    const declared = typeof properties === 'object' ? properties : {};
    const required = new Set((Array.isArray(node['required']) ? node['required'] : []).filter(isString));
    const extra = asSchema(node['additionalProperties']) ?? true;
    const result: { [key: string]: Json } = {};
    const keys = [...Object.keys(declared), ...[...required].filter((key) => !(key in declared))];
    for (const key of keys) {
      const schema = asSchema(declared[key]) ?? extra;
      const hinted = this.hints.values?.[key];
      const at = propertyPath(path, key);
      if (hinted !== undefined) result[key] = this.hinted(key, hinted, schema, at);
      else if (required.has(key)) result[key] = this.value(schema, at, depth + 1);
    }
    return result;
  }

  private hinted(key: string, value: Json, schema: JsonSchema, path: string): Json {
    const issues = validateJson(schema, value, this.root, path);
    if (issues.length > 0) {
      throw new SynthesisError(
        path,
        `cannot take the hinted ${key} ${JSON.stringify(value)}: ${formatIssues(issues)}`,
      );
    }
    return value;
  }

  /**
   * allOf flattened into one node to synthesise from: properties merged, required lists joined,
   * other keywords from the later branch. The caller still validates against the unmerged node.
   */
  private mergeAllOf(node: { readonly [k: string]: Json }, path: string): { readonly [k: string]: Json } {
    const { allOf, ...rest } = node;
    const merged: { [k: string]: Json } = { ...rest };
    for (const raw of schemaList(allOf)) {
      const branch = resolveRef(raw, this.root);
      if (branch === false) throw new SynthesisError(path, 'allows no value (allOf has false)');
      if (branch === true) continue;
      const properties = { ...asObject(merged['properties']), ...asObject(branch['properties']) };
      const required = [...asArray(merged['required']), ...asArray(branch['required'])];
      Object.assign(merged, branch);
      // only objects get these, or a string's allOf would come out implying an object
      if (Object.keys(properties).length > 0) merged['properties'] = properties;
      if (required.length > 0) merged['required'] = required;
    }
    return merged;
  }
}

/** The type a schema without `type` means, judged by the keywords it uses. */
function impliedType(node: { readonly [k: string]: Json }): string {
  if ('properties' in node || 'required' in node || 'additionalProperties' in node) return 'object';
  if ('items' in node || 'prefixItems' in node || 'minItems' in node) return 'array';
  if ('minimum' in node || 'maximum' in node || 'exclusiveMinimum' in node || 'exclusiveMaximum' in node) {
    return 'number';
  }
  return 'string';
}

/**
 * 0 when the bounds allow it, else the value nearest to it: the lowest allowed above a lower
 * bound, the highest allowed below an upper one, the midpoint of two exclusive bounds; then
 * rounded up to `multipleOf`.
 */
function numberWithin(node: { readonly [k: string]: Json }, integer: boolean): number {
  const min = numberKeyword(node, 'minimum');
  const max = numberKeyword(node, 'maximum');
  const above = numberKeyword(node, 'exclusiveMinimum');
  const below = numberKeyword(node, 'exclusiveMaximum');
  const step = numberKeyword(node, 'multipleOf');
  const high = max ?? below;
  const low = min ?? above;
  let value = 0;
  if (min !== undefined && value < min) value = integer ? Math.ceil(min) : min;
  if (above !== undefined && value <= above) {
    value = integer ? Math.floor(above) + 1 : high !== undefined ? (above + high) / 2 : above + 1;
  }
  if (max !== undefined && value > max) value = integer ? Math.floor(max) : max;
  if (below !== undefined && value >= below) {
    value = integer ? Math.ceil(below) - 1 : low !== undefined ? (low + below) / 2 : below - 1;
  }
  if (step !== undefined && step > 0) value = Math.ceil(value / step) * step;
  return value;
}

/** `text` padded by repeating it, or cut, to fit the length bounds (code points, as JSON schema counts). */
function fitLength(text: string, minLength: number | undefined, maxLength: number | undefined): string {
  let chars = [...text];
  if (minLength !== undefined && chars.length < minLength) {
    const unit = chars.length > 0 ? [' ', ...chars] : ['x'];
    while (chars.length < minLength) chars = [...chars, ...unit];
  }
  if (maxLength !== undefined && chars.length > maxLength) chars = chars.slice(0, maxLength);
  return chars.join('');
}

function asObject(value: Json | undefined): { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
}

function asArray(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

function isString(value: Json): value is string {
  return typeof value === 'string';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
