import type { ElicitEvent, ElicitType, Json } from '@sweatpants/domain';

/** An `accept` answer that fits the elicit's type, as a user clicking the first choice would give. */
export function acceptContentFor(
  elicit: Pick<ElicitEvent, 'type' | 'payload' | 'schema'>,
  turn: number,
): Json {
  return contentFor(elicit.type, elicit.payload as unknown as { [key: string]: Json }, elicit.schema, turn);
}

function contentFor(
  type: ElicitType,
  payload: { [key: string]: Json },
  schema: { [key: string]: Json } | undefined,
  turn: number,
): Json {
  switch (type) {
    case 'chat':
      return { text: CHAT_LINES[turn % CHAT_LINES.length]! };
    case 'free-text':
      return { text: `answer ${turn}` };
    case 'propose-disposition': {
      const choices = payload['choices'] as { disposition: Json }[];
      return { disposition: choices[0]!.disposition, wasCorrection: false };
    }
    case 'choose': {
      const options = payload['options'] as { id: string }[];
      return { choiceId: options[0]!.id };
    }
    case 'confirm':
      return { value: payload['default'] === true };
    case 'group': {
      const questions = payload['questions'] as {
        id: string;
        type: ElicitType;
        payload: { [key: string]: Json };
      }[];
      const answers: { [key: string]: Json } = {};
      for (const q of questions) answers[q.id] = contentFor(q.type, q.payload, undefined, turn);
      return { answers };
    }
    case 'form':
      return formContent(schema ?? {});
    case 'location':
      return { lat: 52.52, lng: 13.405 };
    case 'clipboard-read':
      return { text: 'from the clipboard' };
    case 'clipboard-write':
      return { success: true };
  }
}

// What a person tidying a room says; the offline model's rules walk the flow from these.
const CHAT_LINES = [
  "Let's tidy my desk",
  'There is a stack of old magazines',
  'A broken lamp',
  'Some cables I never use',
  'A mug from a conference',
  'Winter gloves',
];

/** A value for each property of a flat JSON schema (MCP elicitation's form). */
function formContent(schema: { [key: string]: Json }): Json {
  const properties = (schema['properties'] ?? {}) as { [key: string]: { [key: string]: Json } };
  const out: { [key: string]: Json } = {};
  for (const [name, prop] of Object.entries(properties)) {
    const choices = prop['enum'];
    if (Array.isArray(choices) && choices.length > 0) out[name] = choices[0]!;
    else if (prop['type'] === 'number' || prop['type'] === 'integer')
      out[name] = typeof prop['minimum'] === 'number' ? prop['minimum'] : 1;
    else if (prop['type'] === 'boolean') out[name] = true;
    else out[name] = 'value';
  }
  return out;
}
