import * as z from 'zod';
import { MAX_MESSAGE_LENGTH, MAX_MESSAGE_PHOTOS } from './message';
import { ElicitActionSchema, JsonSchema, PhotoSchema, type InlinePhoto, type Json } from './node';
import type { FieldProblem } from './result';

/**
 * Elicits: what the backend asks of the browser (PROTOCOL.md, Elicit types). Each type has the
 * payload the server sends and the content an `accept` carries back; both sides validate with
 * these schemas, so a content that does not fit its type is refused before it reaches an agent.
 */

/** Where an item goes (seed 002's ItemDisposition; no "unsure": that is an antipattern). */
export const DispositionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('place'), location: z.string().trim().min(1) }),
  z.object({ kind: z.literal('trash') }),
  z.object({ kind: z.literal('donate') }),
  z.object({ kind: z.literal('recycle') }),
  z.object({ kind: z.literal('skip') }),
  z.object({ kind: z.literal('need-more-info') }),
]);
export type Disposition = z.infer<typeof DispositionSchema>;

const JsonObjectSchema = z.record(z.string(), JsonSchema);

/** A question inside a `group`: any other elicit type with its payload. */
const GroupQuestionSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  message: z.string(),
  payload: JsonObjectSchema,
});

/** A `choose` option may reveal a follow-up elicit (seed 000's reveals). */
const RevealSchema = z.object({
  type: z.string().min(1),
  message: z.string(),
  payload: JsonObjectSchema,
});

/** Any question may be answered, skipped (decline), dismissed (cancel) or answered in one's own words. */
const ANSWERS = ['accept', 'decline', 'cancel', 'other'] as const;
/** A question that needs the device's permission may also be refused by the device (denied). */
const DEVICE_ANSWERS = [...ANSWERS, 'denied'] as const;

/**
 * Per type: the payload sent with the elicit, the content of an `accept`, and the actions an
 * answer may take (enforced by parseElicitResponse: a `denied` to a question that asks nothing of
 * the device is refused, naming `action`).
 */
export const ElicitTypes = {
  // Photos here are as stored (PROTOCOL.md's Photo): the api turns a request's inline photos into
  // references before an answer reaches an agent (apps/api's photo intake).
  chat: {
    payload: z.object({ placeholder: z.string().optional() }),
    content: z.object({
      text: z.string().max(MAX_MESSAGE_LENGTH),
      photos: z.array(PhotoSchema).max(MAX_MESSAGE_PHOTOS).optional(),
    }),
    actions: ['accept', 'cancel', 'other'] as const,
  },
  'propose-disposition': {
    payload: z.object({
      item: z.string().min(1),
      choices: z
        .array(z.object({ id: z.string().min(1), label: z.string(), disposition: DispositionSchema }))
        .min(1),
      reason: z.string().optional(),
    }),
    content: z.object({ disposition: DispositionSchema, wasCorrection: z.boolean() }),
    actions: ANSWERS,
  },
  choose: {
    payload: z.object({
      options: z
        .array(z.object({ id: z.string().min(1), label: z.string(), description: z.string().optional() }))
        .min(1),
      reveals: z.record(z.string(), RevealSchema).optional(),
    }),
    content: z.object({ choiceId: z.string().min(1), revealed: JsonSchema.optional() }),
    actions: ANSWERS,
  },
  confirm: {
    payload: z.object({ default: z.boolean() }),
    content: z.object({ value: z.boolean() }),
    actions: ANSWERS,
  },
  'free-text': {
    payload: z.object({ placeholder: z.string().optional() }),
    content: z.object({ text: z.string().max(MAX_MESSAGE_LENGTH) }),
    actions: ANSWERS,
  },
  group: {
    payload: z.object({ questions: z.array(GroupQuestionSchema).min(1) }),
    content: z.object({ answers: z.record(z.string(), JsonSchema) }),
    actions: ANSWERS,
  },
  form: {
    payload: z.object({}),
    // Checked against the elicit's own `schema` by the receiver; here only "an object".
    content: JsonObjectSchema,
    actions: ANSWERS,
  },
  location: {
    payload: z.object({ accuracy: z.enum(['high', 'low']) }),
    content: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180) }),
    actions: DEVICE_ANSWERS,
  },
  'clipboard-read': {
    payload: z.object({}),
    content: z.object({ text: z.string() }),
    actions: DEVICE_ANSWERS,
  },
  'clipboard-write': {
    payload: z.object({ text: z.string() }),
    content: z.object({ success: z.boolean() }),
    actions: DEVICE_ANSWERS,
  },
} as const satisfies Record<
  string,
  { payload: z.ZodType; content: z.ZodType; actions: readonly ElicitAnswer['action'][] }
>;

export type ElicitType = keyof typeof ElicitTypes;
/** The built-in types; an app adds its own with createElicit. */
export const ELICIT_TYPES = Object.keys(ElicitTypes) as ElicitType[];

/** An elicit type as declared: the payload sent, the content of an `accept`, the actions it takes. */
export interface ElicitSpec<P extends z.ZodType = z.ZodType, C extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly payload: P;
  readonly content: C;
  readonly actions: readonly ElicitAnswer['action'][];
  /** what it asks for, in a sentence (the seed's); the message of a question asked without one */
  readonly description?: string;
}

/** Every elicit type the program knows: the built-ins, then those its libraries created. */
const registry = new Map<string, ElicitSpec>(
  Object.entries(ElicitTypes).map(([name, spec]) => [name, { name, ...spec }]),
);

/**
 * Declares an elicit type of an app's own (seed 004's `createElicit`), registered for the whole
 * program: answers to it are checked against `content` and `actions` as the built-ins' are, and a
 * client that has no widget of its own for it draws a form from the JSON schema of `content`
 * (which the runtime's `askFor` sends along). Its `content` should be a flat object, as MCP's
 * elicitation forms are. A name taken by another declaration throws.
 *
 * @example
 * export const Rating = createElicit({
 *   name: 'rating',
 *   payload: z.object({ of: z.string() }),
 *   content: z.object({ stars: z.number().int().min(1).max(5) }),
 *   actions: ['accept', 'decline', 'cancel', 'other'],
 * });
 */
export function createElicit<P extends z.ZodType, C extends z.ZodType>(
  spec: ElicitDeclaration<P, C> | SeedElicitDeclaration<P, C>,
): ElicitSpec<P, C> {
  const declared: ElicitSpec<P, C> =
    'input' in spec
      ? {
          name: spec.name,
          payload: spec.input,
          content: spec.output,
          actions: spec.actions ?? ['accept', 'decline', 'cancel', 'other'],
          ...(spec.description !== undefined ? { description: spec.description } : {}),
        }
      : spec;
  if (!/^[a-z][a-z0-9-]{0,39}$/.test(declared.name))
    throw new Error(`elicit type ${JSON.stringify(declared.name)}: 1–40 lowercase letters, digits or dashes`);
  const taken = registry.get(declared.name);
  if (taken && taken !== spec) throw new Error(`an elicit type named ${declared.name} is already declared`);
  if (!declared.actions.includes('accept')) throw new Error(`elicit type ${declared.name} must take accept`);
  registry.set(declared.name, declared);
  return declared;
}

/** An elicit type as the project declares it: the payload sent, the content of an `accept`. */
export interface ElicitDeclaration<P extends z.ZodType, C extends z.ZodType> {
  name: string;
  payload: P;
  content: C;
  actions: readonly ElicitAnswer['action'][];
  description?: string;
}

/**
 * Seed 004's form of the same: `input` is the payload, `output` the content, and the actions
 * default to accept, decline, cancel and other. (The project names them for what travels: the
 * payload goes to the person's client, the content comes back.)
 */
export interface SeedElicitDeclaration<P extends z.ZodType, C extends z.ZodType> {
  name: string;
  description?: string;
  input: P;
  output: C;
  actions?: readonly ElicitAnswer['action'][];
}

/** The declaration of an elicit type, built in or created; undefined for a name nobody declared. */
export function elicitSpec(name: string): ElicitSpec | undefined {
  return registry.get(name);
}

/**
 * An elicit type's name on the wire: a built-in or one declared with createElicit. Typed as the
 * built-ins' union, which is what the code that switches on a type knows; a created type reaches
 * only code that looks it up (elicitSpec).
 */
export const ElicitTypeSchema = z.custom<ElicitType>(
  (name) => typeof name === 'string' && registry.has(name),
  'is not a declared elicit type',
);

export type ElicitPayload<T extends ElicitType> = z.infer<(typeof ElicitTypes)[T]['payload']>;
export type ElicitContent<T extends ElicitType> = z.infer<(typeof ElicitTypes)[T]['content']>;

/** An elicit as the server sends it (PROTOCOL.md's `elicit` event, without routing fields). */
export interface ElicitRequest<T extends ElicitType = ElicitType> {
  elicitId: string;
  type: T;
  message: string;
  payload: ElicitPayload<T>;
  /** a flat JSON schema, for `form` */
  schema?: { [key: string]: Json };
  /** how long the agent waits before it takes the question's fallback answer; absent: it waits */
  timeoutMs?: number;
  /**
   * the elicit this one asks again, after a side quest that the user's off-script answer to it
   * started: the earlier one stays on the path, answered with the user's words
   */
  resumes?: string;
  /**
   * the name of the agent that asked (`donations` when the donation helper asks inside the coach's
   * turn); clients say who asks when several questions are pending
   */
  askedBy?: string;
}

/** How the user answered (seed 004's ElicitResult). */
export type ElicitResponse<T extends ElicitType = ElicitType> =
  | { action: 'accept'; content: ElicitContent<T> }
  | { action: 'decline' }
  | { action: 'cancel' }
  | { action: 'denied' }
  | { action: 'other'; content: OffScriptContent };

/**
 * A message-like answer (the chat prompt's `accept`, or words typed off-script) as a client sends
 * it: photos inline, `{mediaType, data}`. The api stores them and the agent gets Photo references.
 */
export interface ChatContentRequest {
  text: string;
  photos?: InlinePhoto[];
}

/** What a client sends as an `accept` of type T: the content an agent gets, but chat photos inline. */
export type ElicitContentRequest<T extends ElicitType> = T extends 'chat'
  ? ChatContentRequest
  : ElicitContent<T>;

/** An answer as a client sends it (ElicitResponse, with photos inline). */
export type ElicitAnswerRequest<T extends ElicitType = ElicitType> =
  | { action: 'accept'; content: ElicitContentRequest<T> }
  | { action: 'decline' }
  | { action: 'cancel' }
  | { action: 'denied' }
  | { action: 'other'; content: ChatContentRequest };

/** What the user typed (or sent) instead of using the question's own controls. */
export const OffScriptContentSchema = z
  .object({
    text: z.string().max(MAX_MESSAGE_LENGTH),
    photos: z.array(PhotoSchema).max(MAX_MESSAGE_PHOTOS).optional(),
  })
  .refine((c) => c.text.trim().length > 0 || (c.photos?.length ?? 0) > 0, {
    message: 'an off-script answer needs text or a photo',
    path: ['text'],
  });
export type OffScriptContent = z.infer<typeof OffScriptContentSchema>;

/** An answer as it arrives over the wire, before its content is checked against the type. */
export const ElicitAnswerSchema = z.object({
  elicitId: z.string().min(1),
  action: ElicitActionSchema,
  content: JsonSchema.optional(),
});
export type ElicitAnswer = z.infer<typeof ElicitAnswerSchema>;

/** The event type the runtime records when a question is settled by the turn its words ran. */
export const QUESTION_SETTLED = 'question-settled';

/**
 * Words typed at a question that were not its answer run a turn of their own (a side quest). When
 * that turn decided what the question asks ("it's where I work from home" at "What do you need to
 * DO in this space?"), the question is settled, not asked again: the runtime records which one and
 * how (an event, which the model's history skips), so the chat can show it answered by the words.
 */
export const QuestionSettledSchema = ElicitAnswerSchema.extend({ type: z.literal(QUESTION_SETTLED) });
export type QuestionSettled = z.infer<typeof QuestionSettledSchema>;

/**
 * Checks an answer against the type it answers: the action must be one the type allows, `accept`
 * needs content of that type, `other`
 * needs `{text, photos?}` with text or a photo, the rest carry none. The error names each bad field
 * and why, as PROTOCOL.md's 400 `details` do.
 */
export function parseElicitResponse<T extends ElicitType>(
  type: T,
  answer: { action: ElicitAnswer['action']; content?: Json | undefined },
):
  | { ok: true; value: ElicitResponse<T> }
  | { ok: false; error: { message: string; problems: FieldProblem[] } } {
  const fail = (issues: z.core.$ZodIssue[]) => {
    const problems = issues.map((i) => ({
      field: ['content', ...i.path.map(String)].join('.'),
      message: i.message,
    }));
    return {
      ok: false as const,
      error: { message: problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems },
    };
  };
  const spec = registry.get(type);
  if (!spec) {
    const message = `${type} is not a declared elicit type`;
    return { ok: false, error: { message, problems: [{ field: 'type', message }] } };
  }
  const allowed: readonly string[] = spec.actions;
  if (!allowed.includes(answer.action)) {
    const message = `a ${type} question is not answered ${answer.action}: it takes ${allowed.join(', ')}`;
    return { ok: false, error: { message, problems: [{ field: 'action', message }] } };
  }
  switch (answer.action) {
    case 'accept': {
      const parsed = spec.content.safeParse(answer.content);
      if (!parsed.success) return fail(parsed.error.issues);
      return { ok: true, value: { action: 'accept', content: parsed.data as ElicitContent<T> } };
    }
    case 'other': {
      const parsed = OffScriptContentSchema.safeParse(answer.content);
      if (!parsed.success) return fail(parsed.error.issues);
      return { ok: true, value: { action: 'other', content: parsed.data } };
    }
    case 'decline':
    case 'cancel':
    case 'denied':
      return { ok: true, value: { action: answer.action } };
  }
}
