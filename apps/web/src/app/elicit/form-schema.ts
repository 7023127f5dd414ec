import type { Json } from '@sweatpants/domain';

import { isRecord } from '../core/json';

/** One field of a flat form schema (MCP elicitation's requestedSchema: primitives and enums). */
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
    }
  | {
      kind: 'number' | 'integer';
      name: string;
      label: string;
      description?: string;
      required: boolean;
      minimum?: number;
      maximum?: number;
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
    const base = {
      name,
      label: typeof raw['title'] === 'string' ? raw['title'] : name,
      required: required.has(name),
      ...(typeof raw['description'] === 'string' ? { description: raw['description'] } : {}),
    };
    const values = Array.isArray(raw['enum'])
      ? raw['enum'].filter((v): v is string => typeof v === 'string')
      : null;
    if (values && values.length > 0) {
      const names = Array.isArray(raw['enumNames']) ? raw['enumNames'] : [];
      const options = values.map((value, i) => ({
        value,
        label: typeof names[i] === 'string' ? names[i] : value,
      }));
      fields.push({ kind: 'enum', ...base, options });
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
        });
        break;
      case 'number':
      case 'integer':
        fields.push({
          kind: raw['type'],
          ...base,
          ...(typeof raw['minimum'] === 'number' ? { minimum: raw['minimum'] } : {}),
          ...(typeof raw['maximum'] === 'number' ? { maximum: raw['maximum'] } : {}),
        });
        break;
      case 'boolean':
        fields.push({
          kind: 'boolean',
          ...base,
          ...(typeof raw['default'] === 'boolean' ? { default: raw['default'] } : {}),
        });
        break;
      default:
        // arrays, objects and unknown types are not part of a flat form
        break;
    }
  }
  return fields;
}

/** Raw input values (strings from text boxes, booleans from checkboxes) as the schema's types. */
export type FormDraft = Record<string, string | boolean>;

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
      case 'string':
        if (field.minLength !== undefined && text.length < field.minLength) {
          problems[field.name] = `At least ${field.minLength} characters`;
        } else if (field.maxLength !== undefined && text.length > field.maxLength) {
          problems[field.name] = `At most ${field.maxLength} characters`;
        } else value[field.name] = text;
        break;
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
