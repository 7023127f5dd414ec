import type { CommandOf, CommandResult } from './conversation-command';
import type { ClientEventPayload } from './socket-events';

/**
 * The socket encoding of the conversation commands that a client event names as it is: for each
 * such event, the kind of command it asks for. Its acknowledgement carries that command's result
 * (`ClientAckValues` says so for each). `message:send` and `elicit:response` are not here: their
 * photos are stored where they arrive before the command is built.
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

/** The result a socket command's acknowledgement carries. */
export type SocketCommandResult<E extends SocketCommandEvent> = CommandResult<SocketCommandKinds[E]>;

/**
 * Each socket command event's payload (parsed with ClientEventSchemas) as its ConversationCommand.
 *
 * @example
 * const command = SOCKET_COMMANDS['conversation:rewind']({ conversationId, to: 'HEAD~1' });
 * // { kind: 'rewind', to: 'HEAD~1', expectedHead: undefined }
 */
export const SOCKET_COMMANDS: {
  [E in SocketCommandEvent]: (payload: ClientEventPayload<E>) => CommandOf<SocketCommandKinds[E]>;
} = {
  'elicit:progress': (p) => ({ kind: 'progress', elicitId: p.elicitId, payload: p.payload }),
  'conversation:cancel': () => ({ kind: 'cancel' }),
  'conversation:rewind': (p) => ({ kind: 'rewind', to: p.to, expectedHead: p.expectedHead }),
  'message:edit': (p) => ({ kind: 'edit', nodeId: p.nodeId, text: p.text }),
  'message:regenerate': (p) => ({ kind: 'regenerate', nodeId: p.nodeId }),
  'conversation:recover': (p) => ({ kind: 'recover', reflogId: p.reflogId }),
  'message:withdraw': (p) => ({ kind: 'withdraw', nodeId: p.nodeId }),
};
