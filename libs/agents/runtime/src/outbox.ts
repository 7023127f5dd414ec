import type { ElicitRequest, TreeNode } from '@sweatpants/domain';

/**
 * What a runner tells the world as it goes: the api forwards these to the conversation's
 * sockets (PROTOCOL.md's server → client events). Replayed steps send nothing: the client saw them
 * the first time, and a pending elicit is sent again explicitly.
 */
export interface Outbox {
  nodes(nodes: TreeNode[], head: string): void;
  status(status: RunnerStatus): void;
  elicit(request: ElicitRequest, nodeId: string): void;
  withdrawn(elicitId: string, reason: string): void;
  notify(message: { nodeId: string; message: string; progress?: number; total?: number }): void;
  /** streamed model text, for display only; `nodeId` is the node the reply will follow */
  token(nodeId: string, text: string): void;
}

/** idle: waiting for a message; running: a turn is working; waiting: an elicit awaits its answer */
export type RunnerStatus = 'idle' | 'running' | 'waiting';

export const silentOutbox: Outbox = {
  nodes: () => undefined,
  status: () => undefined,
  elicit: () => undefined,
  withdrawn: () => undefined,
  notify: () => undefined,
  token: () => undefined,
};
