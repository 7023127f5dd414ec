import * as z from 'zod';

import { JsonSchema, NodeIdSchema, PhotoSchema, type Json } from '../node';
import { MAX_MESSAGE_PHOTOS, MessageTextSchema, messageParts } from '../message';
import type { Conversation, ElicitEvent, HeadMove, NodeAndHead } from './conversation-api';
import { ElicitResponseRequestSchema, RecoverRequestSchema, RefStringSchema } from './conversation-api';
import { CallerSchema } from './auth';

const ElicitIdSchema = z.string().min(1).max(200);
const expectedHead = NodeIdSchema.optional();

/**
 * What a person (or a client of theirs) asks of one conversation, as a value. The socket events,
 * the HTTP routes and a command forwarded between api processes are encodings of it: each edge
 * parses its own shape into a ConversationCommand once, checks access, and hands the value on;
 * the conversation's actor handles every kind in one exhaustive `switch`.
 *
 * Photos in a command are stored references (`Photo`): an edge stores inline bytes before it
 * builds the command, so no command carries a photo's bytes between processes.
 *
 * @example
 * const command: ConversationCommand = { kind: 'rewind', to: 'HEAD~2' };
 * const parsed = ConversationCommandSchema.safeParse(JSON.parse(message)); // on arrival
 */
export const ConversationCommandSchema = z.discriminatedUnion('kind', [
  /** PROTOCOL.md's Conversation with its live status and pending question */
  z.object({ kind: z.literal('view') }),
  /** the questions waiting, to send a client that joins again (same ids) */
  z.object({ kind: z.literal('pending') }),
  /**
   * the person's message (answering the chat prompt, or a question off-script; while the agent
   * works with nothing to ask, queued)
   */
  z.object({
    kind: z.literal('send'),
    text: messageParts.text,
    photos: PhotoSchema.array().max(MAX_MESSAGE_PHOTOS).optional(),
    expectedHead,
  }),
  /** withdraws a message still queued (sent while the agent worked) */
  z.object({ kind: z.literal('withdraw'), nodeId: NodeIdSchema }),
  /** an answer to a pending question */
  z.object({ kind: z.literal('respond'), elicitId: ElicitIdSchema, answer: ElicitResponseRequestSchema }),
  /** what a question's widget is doing (a location being found) */
  z.object({ kind: z.literal('progress'), elicitId: ElicitIdSchema, payload: JsonSchema }),
  /** Stop: halts whatever runs */
  z.object({ kind: z.literal('cancel') }),
  z.object({ kind: z.literal('rewind'), to: RefStringSchema, expectedHead }),
  z.object({ kind: z.literal('edit'), nodeId: RefStringSchema, text: MessageTextSchema, expectedHead }),
  z.object({ kind: z.literal('regenerate'), nodeId: RefStringSchema, expectedHead }),
  z.object({ kind: z.literal('recover'), reflogId: RecoverRequestSchema.shape.reflogId }),
  z.object({ kind: z.literal('archive') }),
]);
export type ConversationCommand = z.infer<typeof ConversationCommandSchema>;
export type ConversationCommandKind = ConversationCommand['kind'];
/** The command of one kind. */
export type CommandOf<K extends ConversationCommandKind> = Extract<ConversationCommand, { kind: K }>;

/** What each kind of command answers. */
export interface ConversationCommandResults {
  view: Conversation;
  pending: ElicitEvent[];
  send: NodeAndHead;
  respond: NodeAndHead;
  withdraw: Record<string, never>;
  progress: Record<string, never>;
  cancel: { head: string };
  rewind: HeadMove;
  edit: NodeAndHead;
  regenerate: { head: string };
  recover: HeadMove;
  archive: Record<string, never>;
}
export type CommandResult<K extends ConversationCommandKind> = ConversationCommandResults[K];

/**
 * A command on its way to the api process that drives the conversation: who asks, about which
 * conversation, what. The receiving process parses it with this schema (never a cast) and checks
 * access again before the actor sees it.
 */
export const ForwardedCommandSchema = z.object({
  user: CallerSchema,
  conversationId: z.string().min(1).max(200),
  command: ConversationCommandSchema,
});
export type ForwardedCommand = z.infer<typeof ForwardedCommandSchema>;

/** A command's answer as it crosses between processes: the wire types are JSON by construction. */
export type CommandReply = Json;
