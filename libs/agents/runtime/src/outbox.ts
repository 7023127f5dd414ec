import type { ElicitRequest, QueuedMessage, TreeNode } from '@sweatpants/domain';

/**
 * What a runner tells the world as it goes: the api forwards these to the conversation's
 * sockets (PROTOCOL.md's server → client events). Replayed steps send nothing: the client saw them
 * the first time, and a pending elicit is sent again explicitly.
 */
export interface Outbox {
  /** nodes just stored, and the HEAD they leave */
  nodes(nodes: TreeNode[], head: string): void;
  /** the runner's status changed */
  status(status: RunnerStatus): void;
  /** a question to put before the user; `nodeId` is the elicit node that asked it */
  elicit(request: ElicitRequest, nodeId: string): void;
  /** a question no longer waits (`timeout`, `cancelled`): the client takes it down */
  withdrawn(elicitId: string, reason: string): void;
  /**
   * a notice, with its progress when the tool gave one; `nodeId` is its notify node, absent for a
   * passing one that is kept nowhere (an MCP server's progress during a call)
   */
  notify(message: { nodeId?: string; message: string; progress?: number; total?: number }): void;
  /** streamed model text, for display only; `nodeId` is the node the reply will follow */
  token(nodeId: string, text: string): void;
  /** the messages waiting to be taken changed (one queued, taken or withdrawn): all of them, oldest first */
  queue(items: QueuedMessage[]): void;
}

/** idle: waiting for a message; running: a turn is working; waiting: an elicit awaits its answer */
export type RunnerStatus = 'idle' | 'running' | 'waiting';

/**
 * An outbox that tells nobody: the default of a runner opened without one, and the base a test
 * overrides only what it listens to.
 *
 * @example
 * const outbox: Outbox = { ...silentOutbox, notify: (notice) => notices.push(notice) };
 * const runner = await Runner.open({ conversationId, agent, port, model, outbox });
 */
export const silentOutbox: Outbox = {
  nodes: () => undefined,
  status: () => undefined,
  elicit: () => undefined,
  withdrawn: () => undefined,
  notify: () => undefined,
  token: () => undefined,
  queue: () => undefined,
};

/**
 * `outbox` while `open()` holds, and silent after; every status change still reaches `onStatus`
 * (the runner keeps its own status whether or not anyone hears it).
 */
export function whileOpen(
  outbox: Outbox,
  open: () => boolean,
  onStatus: (status: RunnerStatus) => void,
): Outbox {
  return {
    nodes: (nodes, head) => open() && outbox.nodes(nodes, head),
    elicit: (request, nodeId) => open() && outbox.elicit(request, nodeId),
    withdrawn: (elicitId, reason) => open() && outbox.withdrawn(elicitId, reason),
    notify: (message) => open() && outbox.notify(message),
    token: (nodeId, text) => open() && outbox.token(nodeId, text),
    queue: (items) => open() && outbox.queue(items),
    status: (status) => {
      onStatus(status);
      if (open()) outbox.status(status);
    },
  };
}
