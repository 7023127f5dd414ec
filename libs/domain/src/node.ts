import * as z from 'zod';

/** Every kind of node a conversation tree holds (PROTOCOL.md, Nodes). */
export const NODE_KINDS = [
  'root',
  'user',
  'assistant',
  'elicit',
  'response',
  'notify',
  'tool_call',
  'tool_result',
  'summary',
  'mode',
  'cancel',
  'event',
] as const;
export const NodeKindSchema = z.enum(NODE_KINDS);
export type NodeKind = z.infer<typeof NodeKindSchema>;

/** A node id: the hex sha-256 of the node's canonical content (see tree-store's content address). */
export const NodeIdSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a node id is 64 lowercase hex characters');
export type NodeId = z.infer<typeof NodeIdSchema>;

/** The image types a photo may be (the api checks the bytes, not just the label). */
export const PhotoMediaTypeSchema = z.enum(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
export type PhotoMediaType = z.infer<typeof PhotoMediaTypeSchema>;

/** A blob's name: the hex sha-256 of its stored bytes. */
export const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'a sha-256 is 64 lowercase hex characters');

/**
 * A photo as a node holds it (PROTOCOL.md, Nodes): a content-addressed object, stored once however
 * often it is sent; its bytes are at `GET /api/blobs/:sha256`. `bytes` is the stored size;
 * `width` and `height` are in pixels, upright.
 */
export const PhotoSchema = z.object({
  sha256: Sha256Schema,
  mediaType: PhotoMediaTypeSchema,
  bytes: z.number().int().nonnegative(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
});
export type Photo = z.infer<typeof PhotoSchema>;

/**
 * A photo as a request may send it: its bytes inline, base64. The api checks and prepares the
 * bytes, stores them and puts the resulting Photo in the node: no node ever holds this form.
 */
export const InlinePhotoSchema = z.object({
  mediaType: PhotoMediaTypeSchema,
  /** base64, without a data: prefix */
  data: z.string().min(1),
});
export type InlinePhoto = z.infer<typeof InlinePhotoSchema>;

const ELICIT_ACTIONS = ['accept', 'decline', 'cancel', 'denied', 'other'] as const;
export const ElicitActionSchema = z.enum(ELICIT_ACTIONS);
export type ElicitAction = z.infer<typeof ElicitActionSchema>;

/** Anything JSON: payloads are stored as jsonb and hashed in canonical form. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * How deeply JSON from outside may nest. No payload of ours comes near it; a hostile one nested
 * thousands deep would exhaust the stack of the recursive check below, so it is refused first, by
 * a walk that does not recurse.
 */
export const MAX_JSON_DEPTH = 64;

function nestsWithin(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [next, depth] = item;
    if (typeof next !== 'object' || next === null) continue;
    if (depth >= max) return false;
    for (const child of Array.isArray(next) ? next : Object.values(next)) stack.push([child, depth + 1]);
  }
  return true;
}

/**
 * Where `value` stops being JSON (a string, a finite number, a boolean, null, an array without
 * holes, or a plain object of such values), as the path to the first value that is not; undefined
 * when it all is. Called once the depth is known to be within MAX_JSON_DEPTH, so it may recurse;
 * the path is built only for a value refused.
 */
function notJsonAt(value: unknown): (string | number)[] | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : [];
    case 'object': {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const at = i in value ? notJsonAt(value[i]) : [];
          if (at) return [i, ...at];
        }
        return undefined;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (
        (prototype !== Object.prototype && prototype !== null) ||
        Object.getOwnPropertySymbols(value).length > 0
      )
        return [];
      for (const key of Object.keys(value)) {
        const at = notJsonAt((value as Record<string, unknown>)[key]);
        if (at) return [key, ...at];
      }
      return undefined;
    }
    default:
      return [];
  }
}

/**
 * Any JSON value, taken as it is (not copied). Every node of every write passes through it, so it
 * is one walk of the value rather than a union tried at every level. To zod it is `unknown`
 * refined, so JSON Schema made from a schema that holds it (an app's elicit type, the OpenAPI
 * document) says "any value" there instead of refusing a custom type.
 */
export const JsonSchema = z.unknown().superRefine((value, ctx) => {
  if (!nestsWithin(value, MAX_JSON_DEPTH)) {
    ctx.addIssue({ code: 'custom', message: `nests deeper than ${MAX_JSON_DEPTH} levels` });
    return;
  }
  const at = notJsonAt(value);
  if (at) ctx.addIssue({ code: 'custom', message: 'Invalid input: not JSON', path: at });
}) as unknown as z.ZodType<Json>;
const JsonObjectSchema = z.record(z.string(), JsonSchema);

/** Whether `value` is JSON, as JsonSchema checks it (within MAX_JSON_DEPTH, then every value). */
export function isJson(value: unknown): value is Json {
  return nestsWithin(value, MAX_JSON_DEPTH) && notJsonAt(value) === undefined;
}

/**
 * `value`, built as JSON by its maker (a wire form, a schema's parsed output, a tool's input), as
 * Json: checked, and taken as it is (not copied). A value that is not JSON is a bug where it was
 * built, so it throws, saying where it stops being JSON.
 *
 * @example
 * return ToolSuccess(toJson(PhotoAnalysisSchema.parse(value)));
 */
export function toJson(value: unknown): Json {
  if (isJson(value)) return value;
  const at = nestsWithin(value, MAX_JSON_DEPTH) ? (notJsonAt(value) ?? []) : [];
  throw new TypeError(`not JSON${at.length ? ` at ${at.join('.')}` : ''}`);
}

/** `toJson` for a value built as a JSON object (a node's payload): anything else throws. */
export function toJsonObject(value: unknown): { [key: string]: Json } {
  const json = toJson(value);
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) return json;
  throw new TypeError('not a JSON object');
}

/**
 * PROTOCOL.md's ElicitRequest envelope, the fields every client reads: an `elicit` node's payload
 * holds them, and a conversation's pending question is them (its payload only its type knows).
 */
export const ELICIT_REQUEST_FIELDS = {
  elicitId: z.string().min(1),
  type: z.string().min(1),
  message: z.string(),
  payload: JsonObjectSchema,
  schema: JsonObjectSchema.optional(),
  timeoutMs: z.number().int().positive().optional(),
  resumes: z.string().min(1).optional(),
  askedBy: z.string().min(1).optional(),
};

/**
 * Payload schemas per node kind. The ones PROTOCOL.md fixes are strict about the fields clients
 * rely on and pass through any extra field the agents add; the others are agent-defined objects.
 */
export const NodePayloadSchemas = {
  root: z.looseObject({
    conversationId: z.string(),
    forkedFrom: z.object({ conversationId: z.string(), nodeId: NodeIdSchema }).optional(),
  }),
  user: z.looseObject({
    text: z.string(),
    photos: z.array(PhotoSchema).optional(),
    /** a message sent while the agent worked, as a send answered it: not yet in the tree */
    queued: z.literal(true).optional(),
    /** the queued message this node took, once the agent took it */
    queuedId: NodeIdSchema.optional(),
  }),
  assistant: z.looseObject({
    text: z.string(),
    /**
     * When the model was asked (the node's `createdAt` is when its reply came): the call's own
     * duration for an operator's waterfall. Older nodes have none.
     */
    startedAt: z.iso.datetime().optional(),
  }),
  elicit: z.looseObject(ELICIT_REQUEST_FIELDS),
  response: z.looseObject({
    elicitId: z.string().min(1),
    action: ElicitActionSchema,
    content: JsonSchema.optional(),
  }),
  notify: z.looseObject({
    message: z.string(),
    progress: z.number().optional(),
    total: z.number().optional(),
  }),
  tool_call: JsonObjectSchema,
  tool_result: JsonObjectSchema,
  summary: z.looseObject({
    text: z.string(),
    covers: z.object({ fromId: NodeIdSchema, toId: NodeIdSchema, count: z.number().int().positive() }),
  }),
  mode: z.looseObject({ from: z.string().nullable(), to: z.string() }),
  cancel: z.looseObject({
    /** who stopped the agent */
    by: z.string().optional(),
    /**
     * The move of HEAD this stop made way for (a rewind, an edit…), when it was not a Stop of its
     * own: a history in words tells the move, not the stop. Only older conversations hold one:
     * leaving a branch no longer stops its turn (it waits there for the person to come back).
     */
    before: z.enum(['rewind', 'edit', 'regenerate', 'recover']).optional(),
  }),
  event: JsonObjectSchema,
} satisfies Record<NodeKind, z.ZodType>;

export type NodePayload<K extends NodeKind = NodeKind> = z.infer<(typeof NodePayloadSchemas)[K]>;

/** What a writer supplies for a new node; the store adds id, parent, depth and time. */
export type NodeDraft = {
  [K in NodeKind]: { kind: K; payload: NodePayload<K>; authorId: string };
}[NodeKind];

/** A stored node (PROTOCOL.md, Nodes). */
export interface TreeNode<K extends NodeKind = NodeKind> {
  id: NodeId;
  conversationId: string;
  parentId: NodeId | null;
  depth: number;
  kind: K;
  payload: NodePayload<K>;
  /** a user id, or `agent:<name>` */
  authorId: string;
  createdAt: string;
}

/** A node together with its children, as the tree and node reads return it. */
export interface TreeNodeWithChildren extends TreeNode {
  childIds: NodeId[];
}

/** A node in a page of the whole tree: its children and whether it is on the root → HEAD path. */
export interface TreeListingNode extends TreeNodeWithChildren {
  onHead: boolean;
}

const DraftEnvelopeSchema = z.object({
  kind: NodeKindSchema,
  payload: z.unknown(),
  authorId: z.string().min(1),
});

/**
 * Checks a node draft: its kind, its author, and its payload against that kind's schema.
 * Issues name the bad fields with `payload.` in front, as a client sent them.
 */
export function parseNodeDraft(value: unknown): z.ZodSafeParseResult<NodeDraft> {
  const envelope = DraftEnvelopeSchema.safeParse(value);
  if (!envelope.success) return envelope as z.ZodSafeParseResult<never>;
  const { kind, authorId } = envelope.data;
  const payload = NodePayloadSchemas[kind].safeParse(envelope.data.payload);
  if (!payload.success) {
    return {
      success: false,
      error: new z.ZodError(payload.error.issues.map((i) => ({ ...i, path: ['payload', ...i.path] }))),
    } as z.ZodSafeParseResult<never>;
  }
  return { success: true, data: { kind, authorId, payload: payload.data } as NodeDraft };
}
