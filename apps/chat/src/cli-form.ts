import type { ElicitRequest, Json } from '@sweatpants/domain';
import type { Operation } from 'effection';
import type { Candidate, CliIo } from './cli-io';

/** A property of a flat form schema, as MCP elicitation allows: a primitive, maybe an enum. */
interface Field {
  key: string;
  type: 'string' | 'number' | 'integer' | 'boolean';
  label: string;
  description: string | undefined;
  options: readonly Json[] | undefined;
  fallback: Json | undefined;
  required: boolean;
}

/**
 * A `form` elicit in a terminal: one line per property of its flat JSON schema, in order, with
 * the property's title, its choices (numbered) and its default. An empty line takes the default
 * or leaves an optional property out; a value that does not parse as the property's type is
 * asked again. The whole object is then checked against the schema by the caller.
 */
export function* askForm(request: ElicitRequest, io: CliIo): Operation<Candidate> {
  const fields = fieldsOf(request.schema);
  const content: { [key: string]: Json } = {};
  for (const field of fields) {
    if (field.description) io.say(`  ${field.label}: ${field.description}`);
    field.options?.forEach((option, i) => io.say(`    ${i + 1}. ${String(option)}`));
    const hint = [
      field.type === 'boolean' ? 'y/n' : field.type,
      field.fallback === undefined ? undefined : `default ${JSON.stringify(field.fallback)}`,
      field.required ? undefined : 'optional',
    ]
      .filter(Boolean)
      .join(', ');
    for (;;) {
      const got = yield* io.read(`${field.label} (${hint})> `);
      if (typeof got !== 'string') return got.settled;
      const text = got.trim();
      if (text === '') {
        if (field.fallback !== undefined) content[field.key] = field.fallback;
        else if (field.required) {
          io.say('  This one is required.');
          continue;
        }
        break;
      }
      const value = parseValue(field, text);
      if (value === undefined) {
        io.say(`  That is not ${field.options ? 'one of the choices' : KIND_NAMES[field.type]}.`);
        continue;
      }
      content[field.key] = value;
      break;
    }
  }
  return { action: 'accept', content };
}

const KIND_NAMES: Record<Field['type'], string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'y or n',
};

function parseValue(field: Field, text: string): Json | undefined {
  if (field.options) {
    const picked = /^\d+$/.test(text) ? field.options[Number(text) - 1] : undefined;
    return picked ?? field.options.find((o) => String(o) === text);
  }
  switch (field.type) {
    case 'string':
      return text;
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (!Number.isFinite(n) || (field.type === 'integer' && !Number.isInteger(n))) return undefined;
      return n;
    }
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return true;
      if (/^(n|no|false)$/i.test(text)) return false;
      return undefined;
  }
}

function fieldsOf(schema: ElicitRequest['schema']): Field[] {
  const properties = asObject(schema?.['properties']) ?? {};
  const required = new Set(
    Array.isArray(schema?.['required']) ? schema['required'].filter((r) => typeof r === 'string') : [],
  );
  return Object.entries(properties).map(([key, raw]) => {
    const property = asObject(raw) ?? {};
    const type = property['type'];
    const title = property['title'];
    const description = property['description'];
    const options = property['enum'];
    return {
      key,
      type: type === 'number' || type === 'integer' || type === 'boolean' ? type : 'string',
      label: typeof title === 'string' ? title : key,
      description: typeof description === 'string' ? description : undefined,
      options: Array.isArray(options) ? options : undefined,
      fallback: property['default'],
      required: required.has(key),
    };
  });
}

function asObject(value: Json | undefined): { [key: string]: Json } | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}
