import type { Json } from '@sweatpants/domain';

/**
 * A JSON schema as a tool spec carries it: `true`/`false` or an object of keywords. The offline
 * model reads the subset zod 4's `z.toJSONSchema` emits (see `validateJson`); anything else in the
 * object is treated as an annotation.
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
 * Every way `value` breaks `schema`, or none. Understands the keywords zod 4's `z.toJSONSchema`
 * emits: type (incl. integer and type lists), const, enum, properties, required,
 * additionalProperties, propertyNames, items, prefixItems, minItems/maxItems, minLength/maxLength,
 * pattern, format 'uri' (other formats come with a pattern), minimum/maximum,
 * exclusiveMinimum/exclusiveMaximum, multipleOf, anyOf, oneOf, allOf, not and local $ref. Other
 * keywords are annotations to it.
 *
 * @example validateJson({ type: 'object', required: ['item'] }, {}) // [{ path: '$.item', message: 'is required' }]
 */
export function validateJson(
  schema: JsonSchema,
  value: Json,
  root: JsonSchema = schema,
  path = '$',
): SchemaIssue[] {
  const node = resolveRef(schema, root);
  if (node === true) return [];
  if (node === false) return [{ path, message: 'no value is allowed here' }];
  const issue = (message: string): SchemaIssue[] => [{ path, message }];

  const types = schemaTypes(node);
  if (types && !types.some((type) => hasType(value, type))) {
    return issue(`expected ${types.join(' or ')}, got ${describe(value)}`);
  }
  if ('const' in node && !sameJson(node['const'] ?? null, value)) {
    return issue(`expected ${JSON.stringify(node['const'])}, got ${JSON.stringify(value)}`);
  }
  const allowed = node['enum'];
  if (Array.isArray(allowed) && !allowed.some((option) => sameJson(option, value))) {
    return issue(`expected one of ${allowed.map((option) => JSON.stringify(option)).join(', ')}`);
  }

  const issues: SchemaIssue[] = [];
  if (typeof value === 'string') issues.push(...stringIssues(node, value, path));
  if (typeof value === 'number') issues.push(...numberIssues(node, value, path));
  if (Array.isArray(value)) issues.push(...arrayIssues(node, value, root, path));
  else if (value !== null && typeof value === 'object') issues.push(...objectIssues(node, value, root, path));

  for (const branch of schemaList(node['allOf'])) issues.push(...validateJson(branch, value, root, path));
  const anyOf = schemaList(node['anyOf']);
  if (anyOf.length > 0) {
    const results = anyOf.map((branch) => validateJson(branch, value, root, path));
    if (!results.some((found) => found.length === 0)) issues.push(...closestBranch(results, path));
  }
  const oneOf = schemaList(node['oneOf']);
  if (oneOf.length > 0) {
    const results = oneOf.map((branch) => validateJson(branch, value, root, path));
    const matching = results.filter((found) => found.length === 0).length;
    if (matching === 0) issues.push(...closestBranch(results, path));
    if (matching > 1)
      issues.push({ path, message: `matches ${matching} alternatives, expected exactly one` });
  }
  const not = asSchema(node['not']);
  if (not !== undefined && validateJson(not, value, root, path).length === 0) {
    issues.push({ path, message: 'matches a schema it must not match' });
  }
  return issues;
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

function stringIssues(node: { readonly [k: string]: Json }, value: string, path: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  // JSON schema counts code points, as zod does
  const length = [...value].length;
  const minLength = numberKeyword(node, 'minLength');
  const maxLength = numberKeyword(node, 'maxLength');
  if (minLength !== undefined && length < minLength) {
    issues.push({ path, message: `expected at least ${minLength} characters, got ${length}` });
  }
  if (maxLength !== undefined && length > maxLength) {
    issues.push({ path, message: `expected at most ${maxLength} characters, got ${length}` });
  }
  const pattern = node['pattern'];
  // zod writes its patterns from JavaScript regexes, so JavaScript's RegExp reads them as meant
  if (typeof pattern === 'string' && !new RegExp(pattern).test(value)) {
    issues.push({ path, message: `does not match the pattern ${pattern}` });
  }
  if (node['format'] === 'uri' && !URL.canParse(value)) issues.push({ path, message: 'is not a URI' });
  return issues;
}

function numberIssues(node: { readonly [k: string]: Json }, value: number, path: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const bound = (keyword: string, broken: (limit: number) => boolean, words: string): void => {
    const limit = numberKeyword(node, keyword);
    if (limit !== undefined && broken(limit))
      issues.push({ path, message: `expected ${words} ${limit}, got ${value}` });
  };
  bound('minimum', (limit) => value < limit, 'at least');
  bound('maximum', (limit) => value > limit, 'at most');
  bound('exclusiveMinimum', (limit) => value <= limit, 'more than');
  bound('exclusiveMaximum', (limit) => value >= limit, 'less than');
  bound('multipleOf', (step) => !Number.isInteger(value / step), 'a multiple of');
  return issues;
}

function arrayIssues(
  node: { readonly [k: string]: Json },
  value: Json[],
  root: JsonSchema,
  path: string,
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const minItems = numberKeyword(node, 'minItems');
  const maxItems = numberKeyword(node, 'maxItems');
  if (minItems !== undefined && value.length < minItems) {
    issues.push({ path, message: `expected at least ${minItems} items, got ${value.length}` });
  }
  if (maxItems !== undefined && value.length > maxItems) {
    issues.push({ path, message: `expected at most ${maxItems} items, got ${value.length}` });
  }
  const prefix = schemaList(node['prefixItems']);
  const rest = asSchema(node['items']);
  value.forEach((item, i) => {
    const itemSchema = prefix[i] ?? rest;
    if (itemSchema !== undefined) issues.push(...validateJson(itemSchema, item, root, `${path}[${i}]`));
  });
  return issues;
}

function objectIssues(
  node: { readonly [k: string]: Json },
  value: { [key: string]: Json },
  root: JsonSchema,
  path: string,
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const properties = node['properties'];
  const declared =
    properties !== null && typeof properties === 'object' && !Array.isArray(properties) ? properties : {};
  const required = Array.isArray(node['required']) ? node['required'] : [];
  for (const key of required) {
    if (typeof key === 'string' && !(key in value))
      issues.push({ path: propertyPath(path, key), message: 'is required' });
  }
  const extra = asSchema(node['additionalProperties']);
  const names = asSchema(node['propertyNames']);
  for (const [key, item] of Object.entries(value)) {
    const at = propertyPath(path, key);
    if (names !== undefined && validateJson(names, key, root, at).length > 0) {
      issues.push({ path: at, message: 'is not an allowed property name' });
    }
    const own = asSchema(declared[key]);
    if (own !== undefined) issues.push(...validateJson(own, item, root, at));
    else if (extra === false) issues.push({ path: at, message: 'is not an allowed property' });
    else if (extra !== undefined) issues.push(...validateJson(extra, item, root, at));
  }
  return issues;
}

/** When no alternative fits, the issues of the one that came closest say most about the mistake. */
function closestBranch(results: SchemaIssue[][], path: string): SchemaIssue[] {
  const closest = results.reduce((best, found) => (found.length < best.length ? found : best));
  return [{ path, message: `matches none of the ${results.length} alternatives` }, ...closest];
}

function hasType(value: Json, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    default:
      return false;
  }
}

function describe(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Structural equality of JSON values, as `const` and `enum` compare. */
export function sameJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((x, i) => sameJson(x, b[i] ?? null))
    );
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => key in b && sameJson(a[key] ?? null, b[key] ?? null))
  );
}
