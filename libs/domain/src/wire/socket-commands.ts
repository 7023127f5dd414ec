import type { CommandOf } from './conversation-command';
import type { ClientEventPayload, SocketCommandEvent, SocketCommandKinds } from './socket-events';

/**
 * The socket encoding of the conversation commands a client event names as it is: each such
 * event's payload (parsed with ClientEventSchemas) as its ConversationCommand.
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
