import type { Json } from '@sweatpants/domain';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * A JSON schema as a tool spec carries it: `true`/`false` or an object of keywords. The
 * runtime checks values against it with Ajv (see `validateJson`); what it does not know in the
 * object is an annotation to it.
 */
export type JsonSchema = boolean | { readonly [keyword: string]: Json };

/** One way a value breaks its schema: where (`$.tags[1]`) and what. */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** The schema `value` claims to be, or undefined when it is not a schema at all. */
export function asSchema(value: Json | undefined): JsonSchema | undefined {
  if (typeof value === 'boolean') return value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  return undefined;
}

/** The schemas in an array-valued keyword (`anyOf`, `prefixItems`, …); non-schemas are skipped. */
export function schemaList(value: Json | undefined): JsonSchema[] {
  if (!Array.isArray(value)) return [];
  return value.map(asSchema).filter((schema): schema is JsonSchema => schema !== undefined);
}

/** A numeric keyword's value, when it is a number. */
export function numberKeyword(schema: JsonSchema, keyword: string): number | undefined {
  if (typeof schema === 'boolean') return undefined;
  const value = schema[keyword];
  return typeof value === 'number' ? value : undefined;
}

/** The JSON types a schema allows by its `type` keyword; undefined when it does not say. */
export function schemaTypes(schema: JsonSchema): string[] | undefined {
  if (typeof schema === 'boolean') return undefined;
  const type = schema['type'];
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return undefined;
}

/**
 * Follows `$ref` to its target within `root`. zod emits local refs only: `#` for the root itself
 * and `#/$defs/<name>` (or `#/definitions/<name>`) for shared and recursive schemas.
 */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  // a bounded walk: a ref that points at a ref is legal, a cycle of pure refs is not a schema
  for (let hops = 0; hops < 16; hops++) {
    if (typeof current === 'boolean') return current;
    const ref = current['$ref'];
    if (typeof ref !== 'string') return current;
    const target = refTarget(ref, root);
    if (target === undefined) throw new Error(`cannot resolve $ref ${ref}: only local refs are supported`);
    current = target;
  }
  throw new Error('$ref chain too long (a cycle?)');
}

function refTarget(ref: string, root: JsonSchema): JsonSchema | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = typeof root === 'boolean' ? undefined : root;
  for (const raw of ref.slice(2).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = node[part];
  }
  return asSchema(node);
}

/** The path of a property below `path`, written as JavaScript would: `$.a`, `$["two words"]`. */
export function propertyPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Every way `value` breaks `schema`, or none, as Ajv (JSON Schema 2020-12, with ajv-formats' email,
 * uri, date and the rest) finds it, each issue named by its path from `path` and in words:
 * `{ path: '$.tags[1]', message: 'expected string, got number' }`. `root` is the document a
 * sub-schema's local `$ref`s point into (input synthesis checks one property at a time). A schema
 * Ajv cannot compile checks nothing, as an annotation would: a question is never made unanswerable
 * by a schema its asker got wrong.
 *
 * @example validateJson({ type: 'object', required: ['item'] }, {}) // [{ path: '$.item', message: 'is required' }]
 */
export function validateJson(
  schema: JsonSchema,
  value: Json,
  root: JsonSchema = schema,
  path = '$',
): SchemaIssue[] {
  if (schema === true) return [];
  if (schema === false) return [{ path, message: 'no value is allowed here' }];
  const check = validatorFor(schema, root);
  if (check === undefined || check(value)) return [];
  return inTheValuesOrder(issuesOf(check.errors ?? [], path), value, path);
}

/**
 * Issues in the order a person reads the value (a form's fields as they were filled in, what is
 * missing after), not the order Ajv walks the schema's keywords in.
 */
function inTheValuesOrder(issues: SchemaIssue[], value: Json, path: string): SchemaIssue[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return issues;
  const keys = Object.keys(value);
  const rank = (issue: SchemaIssue) => {
    const at = keys.findIndex(
      (key) =>
        issue.path === propertyPath(path, key) ||
        issue.path.startsWith(`${propertyPath(path, key)}.`) ||
        issue.path.startsWith(`${propertyPath(path, key)}[`),
    );
    return at < 0 ? keys.length : at;
  };
  return issues
    .map((issue, i) => ({ issue, i, rank: rank(issue) }))
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map(({ issue }) => issue);
}

/**
 * Issues as one line, for error messages.
 *
 * @example
 * const issues = validateJson(request.schema, parsed.value.content);
 * if (issues.length > 0) return { ok: false, error: formatIssues(issues) }; // '$.when is required; …'
 */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
}

/**
 * One Ajv for the process. `strict: false` reads keywords and formats it does not know as
 * annotations (MCP servers and zod add their own); `verbose` keeps the failing value and schema on
 * each error, for the words; `validateSchema: false` takes a draft-07 schema as it comes.
 */
const ajv = new Ajv2020({
  allErrors: true,
  strict: false,
  verbose: true,
  validateSchema: false,
  // a format it does not know ("ends_with", zod's own) is an annotation, not a warning in the log
  logger: false,
});
addFormats(ajv);

/** Compiled checks by schema object, under the document their `$ref`s point into. */
const compiled = new WeakMap<object, WeakMap<object, ValidateFunction | null>>();

function validatorFor(
  schema: { readonly [k: string]: Json },
  root: JsonSchema,
): ValidateFunction | undefined {
  const home = typeof root === 'object' ? root : schema;
  let known = compiled.get(home);
  if (known === undefined) {
    known = new WeakMap();
    compiled.set(home, known);
  }
  const cached = known.get(schema);
  if (cached !== undefined) return cached ?? undefined;
  let check: ValidateFunction | null;
  try {
    check = ajv.compile(withoutDialect(schema === home ? schema : pointedInto(schema, home)));
  } catch {
    check = null;
  } finally {
    // the compiled function is ours to keep (above); Ajv's own cache would keep every schema
    // ever asked, and an MCP server asks a new one with each form
    ajv.removeSchema();
  }
  known.set(schema, check);
  return check ?? undefined;
}

/** `$schema` names a dialect; Ajv 2020 reads draft-07's keywords alike, so the name is not needed. */
function withoutDialect(schema: { readonly [k: string]: Json }): { [k: string]: Json } {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** The id a document is registered under while a sub-schema pointing into it compiles. */
const HOME = 'sweatpants:home';

/**
 * A sub-schema of `home` whose local `$ref`s ("#/$defs/Category", "#") still point into `home`:
 * `home` is registered under an id of its own and each local ref is written against it.
 */
function pointedInto(
  schema: { readonly [k: string]: Json },
  home: { readonly [k: string]: Json },
): { [k: string]: Json } {
  if (!JSON.stringify(schema).includes('"$ref"')) return schema;
  ajv.addSchema(withoutDialect(home), HOME);
  const rewrite = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string' && inner.startsWith('#')
          ? `${HOME}${inner}`
          : rewrite(inner),
      ]),
    );
  };
  return rewrite(schema) as { [k: string]: Json };
}

/**
 * Ajv's errors as issues. Where no alternative of an anyOf/oneOf fits, the one that came closest
 * says most about the mistake: its issues follow "matches none of the N alternatives", the other
 * branches' are left out.
 */
function issuesOf(errors: readonly ErrorObject[], path: string): SchemaIssue[] {
  const unions = errors.filter(
    (e) =>
      (e.keyword === 'anyOf' || e.keyword === 'oneOf') &&
      Array.isArray(e.schema) &&
      !('passingSchemas' in e.params && e.params['passingSchemas'] !== null),
  );
  const farther = new Set<ErrorObject>();
  for (const union of unions) {
    const branches = (union.schema as unknown[]).map((_, i) =>
      errors.filter((e) => e.schemaPath.startsWith(`${union.schemaPath}/${i}/`)),
    );
    const closest = branches.reduce((best, found) => (found.length < best.length ? found : best));
    for (const found of branches) if (found !== closest) for (const e of found) farther.add(e);
  }
  // zod writes a format with its pattern beside it ("uuid" and its regex): the format's words say it
  const formatted = new Set(errors.filter((e) => e.keyword === 'format').map((e) => e.instancePath));
  const kept = errors.filter(
    (e) => !farther.has(e) && !(e.keyword === 'pattern' && formatted.has(e.instancePath)),
  );
  // the union's own issue first, then the closest branch's, as a person reads them
  const ordered = [...kept.filter((e) => unions.includes(e)), ...kept.filter((e) => !unions.includes(e))];
  return ordered.map((e) => issueOf(e, path));
}

function issueOf(error: ErrorObject, base: string): SchemaIssue {
  const at = pathOf(base, error.instancePath);
  const params = error.params as Record<string, unknown>;
  const said = (message: string): SchemaIssue => ({ path: at, message });
  switch (error.keyword) {
    case 'required':
      return { path: propertyPath(at, String(params['missingProperty'])), message: 'is required' };
    case 'additionalProperties':
      return {
        path: propertyPath(at, String(params['additionalProperty'])),
        message: 'is not an allowed property',
      };
    case 'propertyNames':
      return {
        path: propertyPath(at, String(params['propertyName'])),
        message: 'is not an allowed property name',
      };
    case 'type':
      return said(`expected ${[params['type']].flat().join(' or ')}, got ${describe(error.data as Json)}`);
    case 'const':
      return said(`expected ${JSON.stringify(params['allowedValue'])}, got ${JSON.stringify(error.data)}`);
    case 'enum':
      return said(
        `expected one of ${(params['allowedValues'] as Json[]).map((v) => JSON.stringify(v)).join(', ')}`,
      );
    case 'minLength':
      return said(
        `expected at least ${String(params['limit'])} characters, got ${[...String(error.data)].length}`,
      );
    case 'maxLength':
      return said(
        `expected at most ${String(params['limit'])} characters, got ${[...String(error.data)].length}`,
      );
    case 'minItems':
      return said(`expected at least ${String(params['limit'])} items, got ${(error.data as Json[]).length}`);
    case 'maxItems':
      return said(`expected at most ${String(params['limit'])} items, got ${(error.data as Json[]).length}`);
    case 'minimum':
      return said(`expected at least ${String(params['limit'])}, got ${String(error.data)}`);
    case 'maximum':
      return said(`expected at most ${String(params['limit'])}, got ${String(error.data)}`);
    case 'exclusiveMinimum':
      return said(`expected more than ${String(params['limit'])}, got ${String(error.data)}`);
    case 'exclusiveMaximum':
      return said(`expected less than ${String(params['limit'])}, got ${String(error.data)}`);
    case 'multipleOf':
      return said(`expected a multiple of ${String(params['multipleOf'])}, got ${String(error.data)}`);
    case 'pattern':
      return said(`does not match the pattern ${String(params['pattern'])}`);
    case 'format':
      return said(FORMATS[String(params['format'])] ?? `is not a valid ${String(params['format'])}`);
    case 'anyOf':
      return said(`matches none of the ${(error.schema as unknown[]).length} alternatives`);
    case 'oneOf':
      return Array.isArray(params['passingSchemas'])
        ? said(`matches ${params['passingSchemas'].length} alternatives, expected exactly one`)
        : said(`matches none of the ${(error.schema as unknown[]).length} alternatives`);
    case 'not':
      return said('matches a schema it must not match');
    default:
      return said(error.message ?? `breaks its schema's ${error.keyword}`);
  }
}

/** The formats a form asks for most, in words a person reads beside the field. */
const FORMATS: Readonly<Record<string, string>> = {
  email: 'is not an email address',
  uri: 'is not a URI',
  url: 'is not a URI',
  date: 'is not a date (YYYY-MM-DD)',
  'date-time': 'is not a date and time (YYYY-MM-DDThh:mm:ssZ)',
  time: 'is not a time (hh:mm:ss)',
  uuid: 'is not a UUID',
};

/** Ajv's JSON pointer ("/tags/1") as this module writes paths ("$.tags[1]"). */
function pathOf(base: string, pointer: string): string {
  if (pointer === '') return base;
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((at, part) => (/^\d+$/.test(part) ? `${at}[${part}]` : propertyPath(at, part)), base);
}

function describe(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
