import * as z from 'zod';
import { AgentNameSchema } from '../../agent';
import type { ElicitRequest } from '../../elicit';
import {
  ELICIT_REQUEST_FIELDS,
  NodeIdSchema,
  NodePayloadSchemas,
  type NodeKind,
  type TreeListingNode,
  type TreeNode,
  type TreeNodeWithChildren,
} from '../../node';
import { ReflogEntrySchema, type AdminReflogEntry } from '../../reflog';
import { QueuedMessageSchema } from '../queued-message';
import {
  ConversationStatusSchema,
  MODEL_KINDS,
  type AdminReflogPage,
  type Conversation,
  type ConversationList,
  type ConversationUsage,
  type FsckReport,
  type HeadMove,
  type NodeAndHead,
  type PathResponse,
  type ReflogPage,
  type StateResponse,
  type TreePage,
} from '../conversation-api';

/**
 * The answers of PROTOCOL.md's routes as zod schemas, for the HTTP contract: the OpenAPI document
 * shows them and the typed client checks answers against them where asked to. Each is typed as
 * the interface the code already uses, so a schema that drifted from its type does not compile.
 */

/**
 * A pending question as a conversation carries it. Only the envelope every client reads is
 * checked: the type may be one an app declared with createElicit, whose payload only its own
 * declaration knows (parseElicitResponse checks answers against it).
 */
export const ElicitRequestSchema = z.object(ELICIT_REQUEST_FIELDS) as z.ZodType<ElicitRequest>;

const ConversationFields = {
  id: z.string(),
  agent: AgentNameSchema,
  title: z.string(),
  ownerId: z.string(),
  head: NodeIdSchema,
  status: ConversationStatusSchema,
  pendingElicit: ElicitRequestSchema.nullable(),
  pendingElicits: z.array(ElicitRequestSchema),
  model: z.enum(MODEL_KINDS),
  createdAt: z.string(),
  updatedAt: z.string(),
  queued: z.array(QueuedMessageSchema).optional(),
};
export const ConversationSchema: z.ZodType<Conversation> = z.object(ConversationFields);

/**
 * A conversation as a list shows it (the owner's lists, the admin's): a Conversation that also
 * says whether its owner archived it (DELETE archives), so an archived one is never shown unmarked.
 */
export interface ListedConversation extends Conversation {
  /** when its owner archived it; null while it is in their list */
  archivedAt: string | null;
}
export const ListedConversationSchema: z.ZodType<ListedConversation> = z.object({
  ...ConversationFields,
  archivedAt: z.string().nullable(),
});

const NodeEnvelope = z.object({
  id: NodeIdSchema,
  conversationId: z.string(),
  parentId: NodeIdSchema.nullable(),
  depth: z.number().int().nonnegative(),
  authorId: z.string(),
  createdAt: z.string(),
});
const nodeOf = <K extends NodeKind>(kind: K) =>
  NodeEnvelope.extend({ kind: z.literal(kind), payload: NodePayloadSchemas[kind] });

/** A stored node, its payload checked against its kind's schema. */
export const TreeNodeSchema: z.ZodType<TreeNode> = z.discriminatedUnion('kind', [
  nodeOf('root'),
  nodeOf('user'),
  nodeOf('assistant'),
  nodeOf('elicit'),
  nodeOf('response'),
  nodeOf('notify'),
  nodeOf('tool_call'),
  nodeOf('tool_result'),
  nodeOf('summary'),
  nodeOf('mode'),
  nodeOf('cancel'),
  nodeOf('event'),
]);

const Children = z.object({ childIds: z.array(NodeIdSchema) });
export const TreeNodeWithChildrenSchema: z.ZodType<TreeNodeWithChildren> = z.intersection(
  TreeNodeSchema,
  Children,
);
export const TreeListingNodeSchema: z.ZodType<TreeListingNode> = z.intersection(
  TreeNodeSchema,
  Children.extend({ onHead: z.boolean() }),
);

/** A cursor to the next page, or null on the last. */
const Next = z.string().nullable();

export const ConversationListSchema: z.ZodType<ConversationList> = z.object({
  items: z.array(ConversationSchema),
  next: Next,
});
/** A page of a list of conversations, each saying whether it is archived. */
export interface ListedConversationPage extends ConversationList {
  items: ListedConversation[];
}
export const ListedConversationPageSchema: z.ZodType<ListedConversationPage> = z.object({
  items: z.array(ListedConversationSchema),
  next: Next,
});
export const NodeAndHeadSchema: z.ZodType<NodeAndHead> = z.object({
  node: TreeNodeSchema,
  head: NodeIdSchema,
});
export const PathResponseSchema: z.ZodType<PathResponse> = z.object({ nodes: z.array(TreeNodeSchema) });
export const TreePageSchema: z.ZodType<TreePage> = z.object({
  nodes: z.array(TreeListingNodeSchema),
  next: Next,
});
export const HeadSchema = z.object({ head: NodeIdSchema });
export const HeadMoveSchema: z.ZodType<HeadMove> = HeadSchema.extend({ reflog: ReflogEntrySchema });
export const ReflogPageSchema: z.ZodType<ReflogPage> = z.object({
  entries: z.array(ReflogEntrySchema),
  next: Next,
});
const AdminReflogEntrySchema: z.ZodType<AdminReflogEntry> = ReflogEntrySchema.extend({
  conversationId: z.string(),
  ownerId: z.string(),
});
export const AdminReflogPageSchema: z.ZodType<AdminReflogPage> = z.object({
  entries: z.array(AdminReflogEntrySchema),
  next: Next,
});
export const StateResponseSchema: z.ZodType<StateResponse> = z.object({
  at: NodeIdSchema,
  agent: AgentNameSchema,
  state: z.unknown(),
});
const Tokens = z.number().int().nonnegative();
export const ConversationUsageSchema: z.ZodType<ConversationUsage> = z.object({
  calls: Tokens,
  inputTokens: Tokens,
  cacheWriteTokens: Tokens,
  cacheReadTokens: Tokens,
  outputTokens: Tokens,
});
export const FsckReportSchema: z.ZodType<FsckReport> = z.object({
  ok: z.boolean(),
  checked: z.number().int().nonnegative(),
  problems: z.array(z.object({ nodeId: z.string().optional(), problem: z.string() })),
});
