import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ServerEventName, TreeNode } from '@sweatpants/domain';
import type { Redis } from 'ioredis';
import { OnAppEvent, type ConversationEvent } from '../events/app-events';
import { closeRedis } from '../redis/close-redis';
import { ClusterRedis } from '../redis/cluster-redis';

/**
 * The events that say a turn may have settled or asked something: its status changed, a question
 * was asked or withdrawn. Nodes and HEAD moves come with one of these, so they need no signal.
 */
const SIGNALLED: ReadonlySet<ServerEventName> = new Set(['status', 'elicit', 'elicit:withdrawn']);

/** One conversation watched: resolves at its next signal, or after `ms` when none comes. */
export interface ConversationWatch {
  /**
   * The nodes appended meanwhile by this process's runner, in order: the conversation's replies
   * without a read of the store when this process drives it (none when another process does).
   */
  readonly nodes: readonly TreeNode[];
  /** the next signal after the last one taken (at once if one came meanwhile), or `ms` without one */
  next(ms: number): Promise<void>;
  close(): void;
}

/** How long a watch waits for its Redis subscription before it relies on its timer alone. */
const SUBSCRIBE_WAIT_MS = 1_000;

/** `work`, or nothing after `ms`: for a Redis command that may wait for a server that is away. */
export function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void work.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

interface Waker {
  wake(): void;
  nodes: TreeNode[];
}

/**
 * "Something changed in conversation X", heard on every api process: what an MCP call waits on
 * while the process that drives the conversation (which may be another) runs its turn. A
 * conversation's events are emitted in-process where its runner lives (`conversation.event`);
 * this publishes the few that matter on a Redis channel of the conversation's, which a process
 * subscribes to only while one of its calls watches it. A signal carries nothing to trust: the
 * waiter reads the conversation again (the `view` command) after each, and on a timer anyway, so
 * a lost message delays a call, never hangs it. Without Redis there is one process, and the
 * in-process event is enough.
 */
@Injectable()
export class ConversationSignals implements OnApplicationShutdown {
  private readonly logger = new Logger('McpSignals');
  private readonly wakers = new Map<string, Set<Waker>>();
  private subscriber: Redis | undefined;

  constructor(private readonly cluster: ClusterRedis) {}

  @OnAppEvent('conversation.event')
  heard({ event, payload }: ConversationEvent): void {
    if (event === 'node') {
      for (const waker of this.wakers.get(payload.conversationId) ?? []) waker.nodes.push(payload.node);
      return;
    }
    if (!SIGNALLED.has(event)) return;
    this.wake(payload.conversationId);
    this.cluster.client
      ?.publish(this.channel(payload.conversationId), event)
      .catch((error: unknown) => this.logger.warn(`publishing a signal: ${String(error)}`));
  }

  /** Watches `conversationId` from now on; resolves once the watch is in place on every process. */
  async watch(conversationId: string): Promise<ConversationWatch> {
    let signalled = false;
    let resolve: (() => void) | undefined;
    const nodes: TreeNode[] = [];
    const waker: Waker = {
      nodes,
      wake: () => {
        signalled = true;
        resolve?.();
      },
    };
    const set = this.wakers.get(conversationId) ?? new Set();
    const first = set.size === 0;
    set.add(waker);
    this.wakers.set(conversationId, set);
    if (first) await this.subscribe(conversationId);
    return {
      nodes,
      next: (ms) =>
        new Promise<void>((done) => {
          if (signalled) {
            signalled = false;
            return done();
          }
          const timer = setTimeout(finish, ms);
          function finish() {
            clearTimeout(timer);
            signalled = false;
            resolve = undefined;
            done();
          }
          resolve = finish;
        }),
      close: () => {
        resolve?.();
        set.delete(waker);
        if (set.size === 0 && this.wakers.get(conversationId) === set) {
          this.wakers.delete(conversationId);
          this.subscriber
            ?.unsubscribe(this.channel(conversationId))
            .catch((error: unknown) => this.logger.warn(`unsubscribing: ${String(error)}`));
        }
      },
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedis(this.subscriber);
  }

  private async subscribe(conversationId: string): Promise<void> {
    if (!this.cluster.client) return;
    if (!this.subscriber) {
      this.subscriber = this.cluster.duplicate();
      this.subscriber.on('message', (channel: string) => {
        const prefix = this.channel('');
        if (channel.startsWith(prefix)) this.wake(channel.slice(prefix.length));
      });
    }
    // A subscription that fails, or waits on a Redis that is away, leaves the timer: the call
    // still ends, only later.
    await settledWithin(
      this.subscriber
        .subscribe(this.channel(conversationId))
        .catch((error: unknown) => this.logger.warn(`subscribing: ${String(error)}`)),
      SUBSCRIBE_WAIT_MS,
    );
  }

  private wake(conversationId: string): void {
    for (const waker of this.wakers.get(conversationId) ?? []) waker.wake();
  }

  private channel(conversationId: string): string {
    return this.cluster.key('mcp', 'signals', conversationId);
  }
}
