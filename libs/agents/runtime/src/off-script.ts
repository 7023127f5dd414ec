import {
  parseElicitResponse,
  type ElicitContent,
  type ElicitRequest,
  type ElicitType,
  type Json,
  type OffScriptContent,
} from '@sweatpants/domain';
import * as z from 'zod';
import {
  INTERPRET_QUESTION_LINE,
  INTERPRET_TOOL,
  type ModelReply,
  type ToolSpec,
  type ToolUseBlock,
} from './model';
import { asSchema, type JsonSchema, validateJson } from './offline/json-schema';
import type { SampleRequest } from './sample';

/**
 * Seed 004: what the user types while a question waits is the user going off-script, and the
 * model reads it against the question. Words that answer it ("writing letters" to "what do you
 * need to do in this space?", "bin it" to a proposed disposition) are taken as the answer, in the
 * question's own shape; anything else is a tangent, which the asker runs as a side quest before
 * asking again. `elicit` makes the call (a recorded `sample`, so a replay reads the words the same
 * way); this file says what is asked and how the reply is read.
 */

/** How the model read the user's words. */
export type Interpretation<T extends ElicitType = ElicitType> =
  | { kind: 'answer'; content: ElicitContent<T> }
  | {
      kind: 'tangent';
      /**
       * A form's fields the words did give ("good condition" at a form that also asks how many
       * bags), each valid for its field: the form, asked again, starts from them.
       */
      given?: { [field: string]: Json };
    };

/**
 * The question types whose answer can be put in words: a location too, as the town someone names
 * ("I'm in Leeds"); the clipboard's cannot.
 */
const ANSWERABLE_IN_WORDS: ReadonlySet<ElicitType> = new Set([
  'choose',
  'propose-disposition',
  'confirm',
  'free-text',
  'form',
  'location',
]);

/** What an `accept` of each type holds, for the model. */
const CONTENT_SHAPES: Partial<Record<ElicitType, string>> = {
  choose:
    '{"choiceId": <the id of the option the words pick>, "revealed"?: <when that option reveals a question, its answer: {"text": ...} for free text>}',
  'propose-disposition':
    '{"disposition": {"kind": "place", "location": <where>} | {"kind": "trash"} | {"kind": "donate"} | {"kind": "recycle"} | {"kind": "skip"} | {"kind": "need-more-info"}, "wasCorrection": <true unless it is the first choice>}',
  confirm: '{"value": true | false}',
  'free-text': '{"text": <the answer>}',
  location:
    '{"lat": <latitude>, "lng": <longitude>} of the town, city or district the words name as where they are (its centre, roughly); a place the words do not name is no answer',
  form: '{<each field of the question\'s "schema">: <its value as the words give it>} (a yes/no field they do not mention is false, as its unticked box would be); when the words give some fields but not every required one, answers false with the fields they do give as the content',
};

const InterpretInput = z.object({
  answers: z.boolean().describe('whether the words answer the question'),
  content: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'when they answer it: the answer, in the shape given in the system prompt; for a form they fill in only in part, the fields they give',
    ),
});

const INTERPRET_SPEC: ToolSpec = (() => {
  const inputSchema = z.toJSONSchema(InterpretInput, { target: 'draft-7' }) as ToolSpec['inputSchema'];
  delete inputSchema['$schema'];
  return {
    name: INTERPRET_TOOL,
    description: 'Say whether the user’s words answer the pending question and, if so, what the answer is.',
    inputSchema,
  };
})();

/** The `purpose` of the model call that reads off-script words. */
export const INTERPRET_PURPOSE = 'interpret-off-script';

/**
 * The model request that reads `said` against `request`, or null when words cannot answer it (a
 * device capability, an empty message): then it is a tangent without asking.
 *
 * @example
 * const reading = interpretRequest(request, { text: 'bin it' });
 * const sampled = reading ? yield* sample(reading) : null;
 * const read = sampled?.ok ? readInterpretation(request, sampled.value.reply) : { kind: 'tangent' };
 */
export function interpretRequest(request: ElicitRequest, said: OffScriptContent): SampleRequest | null {
  const shape = CONTENT_SHAPES[request.type];
  if (!shape || !ANSWERABLE_IN_WORDS.has(request.type) || said.text.trim() === '') return null;
  const question: Json = {
    type: request.type,
    message: request.message,
    payload: request.payload as Json,
    ...(request.schema ? { schema: request.schema } : {}),
  };
  const photos = said.photos?.length ? ` (with ${said.photos.length} photo(s))` : '';
  return {
    system: [
      'The user was asked a question and typed a reply instead of using its buttons.',
      `Decide whether the reply answers the question. Call ${INTERPRET_TOOL} once: answers true with the`,
      'answer in the shape below when it does; answers false when the reply is about something else',
      '(a question of their own, a remark, a change of subject, wanting to stop), or decides other things',
      'as well as this one ("…, and the lamp goes in the bin"): the asker reads those words whole.',
      `${INTERPRET_QUESTION_LINE}${JSON.stringify(question)}`,
      `Answer shape: ${shape}`,
    ].join('\n'),
    messages: [{ role: 'user', content: [{ type: 'text', text: `${said.text}${photos}` }] }],
    tools: [INTERPRET_SPEC],
    toolChoice: INTERPRET_TOOL,
    purpose: INTERPRET_PURPOSE,
  };
}

/**
 * How the model's reply reads the words. A reading the question's type refuses (a choice that is
 * not offered) counts as a tangent: the question is asked again, so nothing the user meant is
 * taken as something else.
 *
 * @example
 * const sampled = yield* Agent.operations.sample(reading); // reading: interpretRequest(request, said)
 * const read = sampled.ok ? readInterpretation(request, sampled.value.reply) : null;
 * if (read?.kind === 'answer') return { action: 'accept', content: read.content };
 */
export function readInterpretation<T extends ElicitType>(
  request: ElicitRequest<T>,
  reply: ModelReply,
): Interpretation<T> {
  const use = reply.content.find(
    (b): b is ToolUseBlock => b.type === 'tool_use' && b.name === INTERPRET_TOOL,
  );
  const input = InterpretInput.safeParse(use?.input);
  if (!input.success || !input.data.content) return { kind: 'tangent' };
  const content = input.data.content as { [key: string]: Json };
  const schema = request.type === 'form' ? asSchema(request.schema) : undefined;
  const tangent = (): Interpretation<T> => {
    const given = schema === undefined ? {} : fieldsGiven(schema, content);
    return Object.keys(given).length > 0 ? { kind: 'tangent', given } : { kind: 'tangent' };
  };
  if (!input.data.answers) return tangent();
  const parsed = parseElicitResponse(request.type, { action: 'accept', content });
  if (!parsed.ok || parsed.value.action !== 'accept') return { kind: 'tangent' };
  // A form's fields are its own schema's: a reading that leaves one out or gets one wrong would
  // come back to the asker as an incomplete form, so it is a tangent, and the form is asked again
  // with what the words did give.
  if (schema !== undefined && validateJson(schema, content).length > 0) return tangent();
  return { kind: 'answer', content: parsed.value.content };
}

/**
 * A form asked again after words that gave some of its fields: each of them its field's `default`
 * (JSON Schema's, as MCP's elicitation has it), so the person only fills in the rest.
 *
 * @example
 * prefilled(describeForm, { condition: 'good' }); // properties.condition.default === 'good'
 */
export function prefilled(
  schema: { [key: string]: Json },
  given: { [field: string]: Json },
): { [key: string]: Json } {
  const properties = schema['properties'];
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return schema;
  const filled: { [key: string]: Json } = { ...properties };
  for (const [name, value] of Object.entries(given)) {
    const field = filled[name];
    if (field !== null && typeof field === 'object' && !Array.isArray(field))
      filled[name] = { ...field, default: value };
  }
  return { ...schema, properties: filled };
}

/** The fields of `content` that are the form's own and valid for their field. */
function fieldsGiven(schema: JsonSchema, content: { [key: string]: Json }): { [field: string]: Json } {
  if (typeof schema === 'boolean') return {};
  const properties = schema['properties'];
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return {};
  const given: { [field: string]: Json } = {};
  for (const [name, value] of Object.entries(content)) {
    const field = asSchema(properties[name]);
    if (field !== undefined && validateJson(field, value).length === 0) given[name] = value;
  }
  return given;
}
