import type { Json } from '@sweatpants/domain';

import { isRecord } from '../core/json';

/** One field of a flat form schema (MCP elicitation's requestedSchema: primitives and enums, titled or not). */
export type FormField =
  | {
      kind: 'string';
      name: string;
      label: string;
      description?: string;
      required: boolean;
      format?: string;
      minLength?: number;
      maxLength?: number;
      default?: string;
    }
  | {
      kind: 'number' | 'integer';
      name: string;
      label: string;
      description?: string;
      required: boolean;
      minimum?: number;
      maximum?: number;
      default?: number;
    }
  | {
      kind: 'boolean';
      name: string;
      label: string;
      description?: string;
      required: boolean;
      default?: boolean;
    }
  | {
      kind: 'enum';
      name: string;
      label: string;
      description?: string;
      required: boolean;
      options: { value: string; label: string }[];
      default?: string;
    };

/** The fields of a flat JSON schema, in property order; properties of other shapes are skipped. */
export function formFields(schema: { [key: string]: Json } | undefined): FormField[] {
  const properties = schema?.['properties'];
  if (!isRecord(properties)) return [];
  const requiredList = schema?.['required'];
  const required = new Set(
    Array.isArray(requiredList) ? requiredList.filter((r) => typeof r === 'string') : [],
  );
  const fields: FormField[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    if (!isRecord(raw)) continue;
    // A person reads the title; without one, the description is the question put to them (what
    // zod's `.describe()` gives), not a note under a bare property name; failing both, the name
    // in words.
    const title = typeof raw['title'] === 'string' ? raw['title'] : null;
    const description = typeof raw['description'] === 'string' ? raw['description'] : null;
    const base = {
      name,
      label: title ?? description ?? inWords(name),
      required: required.has(name),
      ...(title !== null && description !== null ? { description } : {}),
    };
    // MCP's titled single choice: `oneOf` of `{const, title}`, each value with the words it is shown by.
    const titled = Array.isArray(raw['oneOf'])
      ? raw['oneOf'].flatMap((o) =>
          isRecord(o) && typeof o['const'] === 'string'
            ? [{ value: o['const'], label: typeof o['title'] === 'string' ? o['title'] : o['const'] }]
            : [],
        )
      : [];
    // What the form starts from (JSON Schema's `default`): what the person said already, say.
    const given = raw['default'];
    const text = typeof given === 'string' ? { default: given } : {};
    if (titled.length > 0) {
      fields.push({ kind: 'enum', ...base, options: titled, ...text });
      continue;
    }
    const values = Array.isArray(raw['enum'])
      ? raw['enum'].filter((v): v is string => typeof v === 'string')
      : null;
    if (values && values.length > 0) {
      const names = Array.isArray(raw['enumNames']) ? raw['enumNames'] : [];
      const options = values.map((value, i) => ({
        value,
        label: typeof names[i] === 'string' ? names[i] : value,
      }));
      fields.push({ kind: 'enum', ...base, options, ...text });
      continue;
    }
    switch (raw['type']) {
      case 'string':
        fields.push({
          kind: 'string',
          ...base,
          ...(typeof raw['format'] === 'string' ? { format: raw['format'] } : {}),
          ...(typeof raw['minLength'] === 'number' ? { minLength: raw['minLength'] } : {}),
          ...(typeof raw['maxLength'] === 'number' ? { maxLength: raw['maxLength'] } : {}),
          ...text,
        });
        break;
      case 'number':
      case 'integer':
        fields.push({
          kind: raw['type'],
          ...base,
          ...(typeof raw['minimum'] === 'number' ? { minimum: raw['minimum'] } : {}),
          ...(typeof raw['maximum'] === 'number' ? { maximum: raw['maximum'] } : {}),
          ...(typeof given === 'number' ? { default: given } : {}),
        });
        break;
      case 'boolean':
        fields.push({
          kind: 'boolean',
          ...base,
          ...(typeof given === 'boolean' ? { default: given } : {}),
        });
        break;
      default:
        // arrays, objects and unknown types are not part of a flat form
        break;
    }
  }
  return fields;
}

/** A property's name as words: `pickUpDate` and `pick_up_date` → "Pick up date". */
export function inWords(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : name;
}

/** A field's label before what is said of it: "Room: Kitchen", "How many bags? 2". */
export function labelled(label: string, text: string): string {
  return /[?:]$/.test(label) ? `${label} ${text}` : `${label}: ${text}`;
}

/**
 * A form's answer in the words of its form: each field's label and value, yes/no for a checkbox
 * and an option's label for a pick-one; a value the schema does not name reads by its name.
 */
export function formSummary(
  schema: { [key: string]: Json } | undefined,
  content: Record<string, Json>,
): string {
  const fields = new Map(formFields(schema).map((field) => [field.name, field]));
  const said: string[] = [];
  for (const [name, value] of Object.entries(content)) {
    if (value === null || typeof value === 'object') continue;
    const field = fields.get(name);
    const text =
      typeof value === 'boolean'
        ? value
          ? 'Yes'
          : 'No'
        : field?.kind === 'enum'
          ? (field.options.find((o) => o.value === value)?.label ?? String(value))
          : String(value);
    said.push(labelled(field?.label ?? inWords(name), text));
  }
  return said.join(' · ');
}

/** Raw input values (strings from text boxes, booleans from checkboxes) as the schema's types. */
export type FormDraft = Record<string, string | boolean>;

/** What a form's boxes hold before the person touches them: each field's default. */
export function formDraft(fields: readonly FormField[]): FormDraft {
  const draft: FormDraft = {};
  for (const field of fields) {
    if (field.default === undefined) continue;
    draft[field.name] = typeof field.default === 'number' ? String(field.default) : field.default;
  }
  return draft;
}

/** The object to send, or the problems per field; an empty optional field is left out. */
export function formValue(
  fields: readonly FormField[],
  draft: FormDraft,
): { ok: true; value: Record<string, Json> } | { ok: false; problems: Record<string, string> } {
  const value: Record<string, Json> = {};
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const raw = draft[field.name];
    if (field.kind === 'boolean') {
      value[field.name] = typeof raw === 'boolean' ? raw : (field.default ?? false);
      continue;
    }
    const text = typeof raw === 'string' ? raw.trim() : '';
    if (!text) {
      if (field.required) problems[field.name] = 'Required';
      continue;
    }
    switch (field.kind) {
      case 'string': {
        const formatted = inFormat(field.format, text);
        if (field.minLength !== undefined && text.length < field.minLength) {
          problems[field.name] = `At least ${field.minLength} characters`;
        } else if (field.maxLength !== undefined && text.length > field.maxLength) {
          problems[field.name] = `At most ${field.maxLength} characters`;
        } else if (!formatted.ok) problems[field.name] = formatted.problem;
        else value[field.name] = formatted.value;
        break;
      }
      case 'enum':
        if (field.options.some((o) => o.value === text)) value[field.name] = text;
        else problems[field.name] = 'Pick one of the options';
        break;
      case 'number':
      case 'integer': {
        const n = Number(text);
        if (!Number.isFinite(n)) problems[field.name] = 'A number';
        else if (field.kind === 'integer' && !Number.isInteger(n)) problems[field.name] = 'A whole number';
        else if (field.minimum !== undefined && n < field.minimum)
          problems[field.name] = `At least ${field.minimum}`;
        else if (field.maximum !== undefined && n > field.maximum)
          problems[field.name] = `At most ${field.maximum}`;
        else value[field.name] = n;
        break;
      }
    }
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, value };
}

/**
 * The box a string field is typed in: a phone shows the @ key for an email, a date picker for a
 * date (MCP elicitation's formats: email, uri, date, date-time).
 */
export function inputTypeOf(format: string | undefined): string {
  switch (format) {
    case 'email':
      return 'email';
    case 'uri':
      return 'url';
    case 'date':
      return 'date';
    case 'date-time':
      return 'datetime-local';
    default:
      return 'text';
  }
}

/** A plain check of an email address's shape: the server checks it in full. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
/** What a datetime-local box holds: a local time, no zone. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * `text` as its format asks, or what is wrong with it in words: a local date and time from the
 * picker goes out as the instant it names (RFC 3339, as JSON Schema's date-time is).
 */
function inFormat(
  format: string | undefined,
  text: string,
): { ok: true; value: string } | { ok: false; problem: string } {
  switch (format) {
    case 'email':
      return EMAIL.test(text)
        ? { ok: true, value: text }
        : { ok: false, problem: 'An email address, like name@example.com' };
    case 'uri':
      return URL.canParse(text)
        ? { ok: true, value: text }
        : { ok: false, problem: 'A web address, like https://example.com' };
    case 'date':
      return isDate(text) ? { ok: true, value: text } : { ok: false, problem: 'A date, like 2026-03-14' };
    case 'date-time': {
      if (DATE_TIME.test(text) && !Number.isNaN(Date.parse(text))) return { ok: true, value: text };
      const local = LOCAL_DATE_TIME.test(text) ? new Date(text) : null;
      return local && !Number.isNaN(local.getTime())
        ? { ok: true, value: local.toISOString() }
        : { ok: false, problem: 'A date and time, like 2026-03-14 09:30' };
    }
    default:
      return { ok: true, value: text };
  }
}

/** A calendar date that exists: 2024-02-29, not 2023-02-29. */
function isDate(text: string): boolean {
  const [, y, m, d] = DATE.exec(text) ?? [];
  if (y === undefined || m === undefined || d === undefined) return false;
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return (
    date.getUTCFullYear() === Number(y) &&
    date.getUTCMonth() === Number(m) - 1 &&
    date.getUTCDate() === Number(d)
  );
}
