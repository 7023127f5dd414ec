import * as z from 'zod';
import { ElicitActionSchema, JsonSchema, NodeIdSchema, type TreeNode } from '../node';
import type { ReflogEntry } from '../reflog';
import type { ApiErrorBody } from './error';
import type { QueuedMessage } from './queued-message';
import type { CommandResult } from './conversation-command';
import { MessageTextSchema, messageParts, saysSomething } from '../message';
import {
  RefStringSchema,
  type Conversation,
  type ConversationStatus,
  type ElicitEvent,
} from './conversation-api';

/**
 * PROTOCOL.md's WebSocket contract, once, for the gateway and the web client alike: the payload
 * schemas of client → server events (the gateway validates with them), and the two event maps.
 */
const ConversationRef = z.object({ conversationId: z.string().min(1).max(200) });

export const ClientEventSchemas = {
  'conversation:join': ConversationRef,
  'conversation:leave': ConversationRef,
  'message:send': saysSomething(ConversationRef.extend(messageParts)),
  'elicit:response': ConversationRef.extend({
    elicitId: z.string().min(1).max(200),
    action: ElicitActionSchema,
    content: JsonSchema.optional(),
  }),
  'elicit:progress': ConversationRef.extend({ elicitId: z.string().min(1).max(200), payload: JsonSchema }),
  'conversation:cancel': ConversationRef,
  'conversation:rewind': ConversationRef.extend({
    to: RefStringSchema,
    expectedHead: NodeIdSchema.optional(),
  }),
  'message:edit': ConversationRef.extend({ nodeId: z.string().min(7).max(64), text: MessageTextSchema }),
  'message:regenerate': ConversationRef.extend({ nodeId: z.string().min(7).max(64) }),
  'conversation:recover': ConversationRef.extend({ reflogId: z.string().min(1).max(200) }),
  /** withdraws a queued message before the agent takes it (as DELETE …/queue/:nodeId) */
  'message:withdraw': ConversationRef.extend({ nodeId: NodeIdSchema }),
} as const;
export type ClientEventName = keyof typeof ClientEventSchemas;
export type ClientEventPayload<E extends ClientEventName> = z.infer<(typeof ClientEventSchemas)[E]>;

/** An acknowledgement: `{ok: true, ...}` or `{ok: false, error}`. */
export type Ack<T extends object = object> = ({ ok: true } & T) | { ok: false; error: ApiErrorBody };

/**
 * The client events that are a conversation command as they are, and the kind of command each
 * names (SOCKET_COMMANDS builds it from the payload). Its acknowledgement carries that command's
 * result. `message:send` and `elicit:response` are not among them: their photos are stored where
 * they arrive before their command is built.
 */
export interface SocketCommandKinds {
  'elicit:progress': 'progress';
  'conversation:cancel': 'cancel';
  'conversation:rewind': 'rewind';
  'message:edit': 'edit';
  'message:regenerate': 'regenerate';
  'conversation:recover': 'recover';
  'message:withdraw': 'withdraw';
}
export type SocketCommandEvent = keyof SocketCommandKinds;

/** What each client → server event's acknowledgement carries when it succeeds. */
export type ClientAckValues = {
  'conversation:join': { conversation: Conversation };
  'conversation:leave': object;
  'message:send': { node: TreeNode };
  'elicit:response': { node: TreeNode };
} & {
  /** an event that is a command acknowledges with the command's result */
  [E in SocketCommandEvent]: CommandResult<SocketCommandKinds[E]>;
};

/** Socket.IO's ClientToServerEvents: every event takes its payload and an ack callback. */
export type ClientToServerEvents = {
  [E in ClientEventName]: (
    payload: ClientEventPayload<E>,
    ack: (answer: Ack<ClientAckValues[E]>) => void,
  ) => void;
};

/** Socket.IO's ServerToClientEvents: sent to everyone joined to the conversation, on any api process. */
export interface ServerToClientEvents {
  node: (event: { conversationId: string; node: TreeNode }) => void;
  head: (event: { conversationId: string; head: string; reflog: ReflogEntry }) => void;
  status: (event: { conversationId: string; status: ConversationStatus }) => void;
  elicit: (event: ElicitEvent) => void;
  'elicit:withdrawn': (event: { conversationId: string; elicitId: string; reason: string }) => void;
  notify: (event: {
    conversationId: string;
    nodeId?: string;
    message: string;
    progress?: number;
    total?: number;
  }) => void;
  token: (event: { conversationId: string; nodeId: string; text: string }) => void;
  /** the messages waiting for the agent changed: one was queued, taken or withdrawn (oldest first) */
  queue: (event: { conversationId: string; items: QueuedMessage[] }) => void;
  /** the conversation was renamed, or titled from its first words (beyond PROTOCOL.md: a list can follow) */
  title: (event: { conversationId: string; title: string }) => void;
}
export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];

/** The Socket.IO room of a conversation's sockets. */
export const conversationRoom = (conversationId: string): string => `conversation:${conversationId}`;
