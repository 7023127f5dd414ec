import * as z from 'zod';
import { AgentNameSchema } from '../agent';

import {
  ElicitActionSchema,
  JsonSchema,
  NodeIdSchema,
  type TreeListingNode,
  type TreeNode,
  type TreeNodeWithChildren,
} from '../node';
import type { AdminReflogEntry, ReflogEntry } from '../reflog';
import { ReflogActionSchema } from '../reflog';
import type { ElicitRequest } from '../elicit';
import { MessageTextSchema, messageParts, saysSomething } from '../message';
import type { QueuedMessage } from './queued-message';

/** The conversation's activity (PROTOCOL.md): `waiting` means an elicit is pending and nothing runs. */
export const CONVERSATION_STATUSES = ['running', 'waiting', 'idle'] as const;
export const ConversationStatusSchema = z.enum(CONVERSATION_STATUSES);
export type ConversationStatus = z.infer<typeof ConversationStatusSchema>;

export const MODEL_KINDS = ['claude', 'offline'] as const;
export type ModelKind = (typeof MODEL_KINDS)[number];

/** PROTOCOL.md's Conversation. */
export interface Conversation {
  id: string;
  agent: z.infer<typeof AgentNameSchema>;
  title: string;
  ownerId: string;
  head: string;
  status: ConversationStatus;
  /** the first of `pendingElicits`, for clients that show one question at a time */
  pendingElicit: ElicitRequest | null;
  /** every pending question, oldest first, each with `askedBy` */
  pendingElicits: ElicitRequest[];
  model: ModelKind;
  createdAt: string;
  updatedAt: string;
  /**
   * Messages sent while the agent worked, oldest first, still to be taken (beyond PROTOCOL.md's
   * list: a client that opens the conversation shows them); on a conversation opened by id or on a
   * join, not in lists.
   */
  queued?: QueuedMessage[];
}

/** A ref as PROTOCOL.md spells it: an id, a 7+ character prefix, HEAD, HEAD~n, HEAD^ or HEAD@{n}. */
export const RefStringSchema = z.string().trim().min(1).max(80);

/** The longest title a conversation keeps; a title taken from a first message is cut to fit. */
export const MAX_TITLE_LENGTH = 200;
export const TitleSchema = z.string().trim().min(1).max(MAX_TITLE_LENGTH);

export const CreateConversationRequestSchema = z.object({
  agent: AgentNameSchema,
  title: TitleSchema.optional(),
});
export type CreateConversationRequest = z.infer<typeof CreateConversationRequestSchema>;

export const SendMessageRequestSchema = saysSomething(
  z.object({ ...messageParts, expectedHead: NodeIdSchema.optional() }),
);
export type SendMessageRequest = z.infer<typeof SendMessageRequestSchema>;

/** `PATCH /api/conversations/:id`: the owner renames it. */
export const RenameConversationRequestSchema = z.object({ title: TitleSchema });
export type RenameConversationRequest = z.infer<typeof RenameConversationRequestSchema>;

/** `GET /api/conversations`: the caller's own, by last activity; `q` matches titles. */
export const ConversationListQuerySchema = z.object({
  q: z.string().trim().max(MAX_TITLE_LENGTH).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z.string().min(1).max(200).optional(),
});
export type ConversationListQuery = z.infer<typeof ConversationListQuerySchema>;

/** `POST /api/conversations/:id/nodes/:nodeId/regenerate`: another answer to an assistant reply. */
export const RegenerateRequestSchema = z.object({ expectedHead: NodeIdSchema.optional() });
export type RegenerateRequest = z.infer<typeof RegenerateRequestSchema>;

export const ElicitResponseRequestSchema = z.object({
  action: ElicitActionSchema,
  content: JsonSchema.optional(),
});
export type ElicitResponseRequest = z.infer<typeof ElicitResponseRequestSchema>;

export const RefQuerySchema = z.object({ at: RefStringSchema.default('HEAD') });

export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const TreeQuerySchema = PageQuerySchema.extend({ after: z.string().min(1).max(200).optional() });
export const ReflogQuerySchema = PageQuerySchema.extend({ before: z.string().min(1).max(200).optional() });

export const RewindRequestSchema = z.object({ to: RefStringSchema, expectedHead: NodeIdSchema.optional() });
export type RewindRequest = z.infer<typeof RewindRequestSchema>;

export const EditRequestSchema = z.object({ text: MessageTextSchema, expectedHead: NodeIdSchema.optional() });
export type EditRequest = z.infer<typeof EditRequestSchema>;

export const RecoverRequestSchema = z.object({ reflogId: z.string().min(1).max(200) });
export type RecoverRequest = z.infer<typeof RecoverRequestSchema>;

export const ForkRequestSchema = z.object({
  at: RefStringSchema.default('HEAD'),
  title: TitleSchema.optional(),
});
export type ForkRequest = z.infer<typeof ForkRequestSchema>;

export const AdminReflogQuerySchema = PageQuerySchema.extend({
  userId: z.string().min(1).optional(),
  conversationId: z.string().min(1).optional(),
  action: ReflogActionSchema.optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  before: z.string().min(1).max(200).optional(),
});
export type AdminReflogQuery = z.infer<typeof AdminReflogQuerySchema>;

export const AdminConversationsQuerySchema = PageQuerySchema.extend({
  userId: z.string().min(1).optional(),
  before: z.string().min(1).max(200).optional(),
});

/** Responses, as the client reads them. */
export interface ConversationList {
  items: Conversation[];
  /** the `before` cursor of the next page, or null on the last */
  next: string | null;
}
export interface NodeAndHead {
  node: TreeNode;
  head: string;
}
export interface PathResponse {
  nodes: TreeNode[];
}
export interface TreePage {
  nodes: TreeListingNode[];
  next: string | null;
}
export type NodeResponse = TreeNodeWithChildren;
export interface HeadMove {
  head: string;
  reflog: ReflogEntry;
}
export interface ReflogPage {
  entries: ReflogEntry[];
  next: string | null;
}
export interface AdminReflogPage {
  entries: AdminReflogEntry[];
  next: string | null;
}
export interface AdminConversationPage {
  items: Conversation[];
  next: string | null;
}
/**
 * What a conversation's model calls cost, in tokens, summed over every call on every branch (what
 * was billed, not only HEAD's path): `GET /api/admin/conversations/:id/usage`.
 */
export interface ConversationUsage {
  /** model calls recorded (assistant nodes), the runtime's side calls included */
  calls: number;
  /** input billed in full */
  inputTokens: number;
  /** input written to the prompt cache */
  cacheWriteTokens: number;
  /** input read from the prompt cache */
  cacheReadTokens: number;
  outputTokens: number;
}
export interface StateResponse<S = unknown> {
  at: string;
  agent: z.infer<typeof AgentNameSchema>;
  state: S;
}

export const COMPACTION_STATES = ['waiting', 'active', 'completed', 'failed'] as const;
export type CompactionState = (typeof COMPACTION_STATES)[number];
/**
 * A compaction job as GET compactions lists it (PROTOCOL.md). A completed one names its summary
 * and the range it covers, or says in `reason` why it squashed nothing; a failed one says why in
 * `error`.
 */
export const CompactionSchema = z.object({
  jobId: z.string(),
  state: z.enum(COMPACTION_STATES),
  summaryNodeId: NodeIdSchema.optional(),
  covers: z
    .object({ fromId: NodeIdSchema, toId: NodeIdSchema, count: z.number().int().positive() })
    .optional(),
  reason: z.string().optional(),
  error: z.string().optional(),
});
export type Compaction = z.infer<typeof CompactionSchema>;
export const CompactionListSchema = z.object({ items: z.array(CompactionSchema) });
export type CompactionList = z.infer<typeof CompactionListSchema>;
/** POST compact's answer: the job, queued or already known for this HEAD. */
export const CompactionQueuedSchema = z.object({ jobId: z.string() });
export type CompactionQueued = z.infer<typeof CompactionQueuedSchema>;
export interface FsckReport {
  ok: boolean;
  checked: number;
  problems: { nodeId?: string; problem: string }[];
}

/** PROTOCOL.md's `elicit` event: a pending question, with its conversation and the node that asked it. */
export type ElicitEvent = ElicitRequest & { conversationId: string; nodeId: string };
