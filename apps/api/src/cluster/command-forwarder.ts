import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { SpanKind } from '@opentelemetry/api';
import type { Json } from '@sweatpants/domain';
import type { Redis } from 'ioredis';
import { ApiError, type ErrorBody } from '../errors/api-error';
import { closeRedis } from '../redis/close-redis';
import { ClusterRedis } from '../redis/cluster-redis';
import { continuedSpan } from '../tracing/in-span';
import { GEN_AI } from '../tracing/span-attributes';
import { carrierOf, type TraceCarrier } from '../tracing/trace-carrier';
import { ConversationLease } from './conversation-lease';

/** How long a forwarded command may take at the holder (a turn's first answer included). */
const REPLY_TIMEOUT_MS = 30_000;
/** How long start-up waits for the command channels before going on without Redis. */
const SUBSCRIBE_WAIT_MS = 2_000;
/** How often a command waits to see a dead holder's lease expire. */
const TAKEOVER_POLL_MS = 100;

interface Request {
  requestId: string;
  replyTo: string;
  name: string;
  conversationId: string;
  payload: Json;
  /** forwards so far: a lease that moves twice mid-flight ends in an error, not a loop */
  hops: number;
  /** the sender's trace (W3C `traceparent`), which the command continues where it runs */
  trace?: TraceCarrier;
}

type Reply = { requestId: string; ok: true; value: Json } | { requestId: string; ok: false; body: ErrorBody };

/** Runs one kind of forwarded command at the holder; what it returns goes back as the answer. */
export type CommandHandler = (payload: Json) => Promise<Json>;

/**
 * Commands (a message, an elicit answer, cancel, rewind, edit, recover) run where the
 * conversation's runner is: at the process holding its lease. `run` takes the lease if it is free
 * and runs the command here; if another process holds it, the command goes there over Redis
 * pub/sub (request on the holder's channel, reply on ours) and its answer, or its ApiError, comes
 * back as if it had run here. When no one listens on the holder's channel the holder is dead: the
 * command waits for the lease to expire (LEASE_MS), takes it, and runs here; Runner.open then
 * rebuilds the conversation from the tree and re-issues the pending elicit with the same id.
 */
@Injectable()
export class CommandForwarder implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Forwarding');
  private readonly handlers = new Map<string, CommandHandler>();
  private readonly waiting = new Map<string, (reply: Reply) => void>();
  private subscriber: Redis | undefined;

  constructor(
    private readonly cluster: ClusterRedis,
    private readonly lease: ConversationLease,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.cluster.client) return;
    this.subscriber = this.cluster.duplicate();
    this.subscriber.on('message', (channel: string, message: string) => void this.receive(channel, message));
    const subscribed = this.subscriber.subscribe(
      this.requestsChannel(this.cluster.processId),
      this.repliesChannel(),
    );
    // With Redis away the api still starts: ioredis subscribes once it connects (and again after
    // every reconnect). Until then no process can forward to this one, and it holds no lease.
    const subscriber = this.subscriber;
    const away = new Promise<'away'>((resolve) => {
      setTimeout(resolve, SUBSCRIBE_WAIT_MS, 'away').unref();
      subscriber.once('error', () => resolve('away'));
    });
    const done = subscribed.then(
      () => 'subscribed' as const,
      (error: unknown) => {
        this.logger.warn(`subscribing to the command channels: ${String(error)}`);
        return 'failed' as const;
      },
    );
    if ((await Promise.race([done, away])) === 'away') {
      this.logger.warn('Redis is not answering: forwarding starts when it does');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedis(this.subscriber);
  }

  /** Registers what runs a command named `name` when another process forwards it here. */
  handle(name: string, handler: CommandHandler): void {
    this.handlers.set(name, handler);
  }

  /**
   * Runs a command for a conversation where it belongs: here (`local`) when this process holds or
   * takes the lease, else at the holder through the handler registered under `name`.
   */
  async run<T extends Json>(
    conversationId: string,
    name: string,
    payload: Json,
    local: () => Promise<T>,
  ): Promise<T> {
    return this.runAt(conversationId, name, payload, local, 0);
  }

  private async runAt<T extends Json>(
    conversationId: string,
    name: string,
    payload: Json,
    local: () => Promise<T>,
    hops: number,
  ): Promise<T> {
    const deadline = Date.now() + this.cluster.settings.leaseMs + REPLY_TIMEOUT_MS;
    for (;;) {
      const holder = await this.lease.acquire(conversationId);
      if (holder.kind === 'self') return local();
      if (hops >= 2) throw new ApiError('unavailable', 'the conversation is changing hands; try again');
      const reply = await this.send(holder.processId, { name, conversationId, payload, hops: hops + 1 });
      if (reply) {
        if (reply.ok) return reply.value as T;
        // The holder's error, given to this caller as if it had happened here.
        throw new ApiError(reply.body.error.code, reply.body.error.message, reply.body.error.details);
      }
      // No one listens on the holder's channel: it died holding the lease. Wait out its lease.
      if (Date.now() > deadline)
        throw new ApiError('unavailable', 'the conversation is unavailable; try again');
      await new Promise((resolve) => setTimeout(resolve, TAKEOVER_POLL_MS));
    }
  }

  /** Sends a request to a process; null when no process listens on its channel. */
  private async send(
    processId: string,
    request: Omit<Request, 'requestId' | 'replyTo'>,
  ): Promise<Reply | null> {
    const redis = this.cluster.client as Redis;
    const requestId = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    // Waiting before publishing: a fast holder's reply may arrive before PUBLISH returns.
    const answered = new Promise<Reply>((resolve, reject) => {
      this.waiting.set(requestId, resolve);
      timer = setTimeout(
        () =>
          reject(new ApiError('unavailable', 'the process driving the conversation did not answer in time')),
        REPLY_TIMEOUT_MS,
      );
    });
    try {
      const trace = carrierOf();
      const message: Request = {
        ...request,
        requestId,
        replyTo: this.cluster.processId,
        ...(trace ? { trace } : {}),
      };
      const listeners = await redis.publish(this.requestsChannel(processId), JSON.stringify(message));
      return listeners === 0 ? null : await answered;
    } finally {
      clearTimeout(timer);
      this.waiting.delete(requestId);
    }
  }

  private async receive(channel: string, message: string): Promise<void> {
    if (channel === this.repliesChannel()) {
      const reply = JSON.parse(message) as Reply;
      this.waiting.get(reply.requestId)?.(reply);
      return;
    }
    const request = JSON.parse(message) as Request;
    const reply = await continuedSpan(
      `forwarded ${request.name}`,
      { kind: SpanKind.SERVER, attributes: { [GEN_AI.conversationId]: request.conversationId } },
      request.trace,
      () => this.execute(request),
    );
    await this.cluster.client?.publish(this.repliesChannel(request.replyTo), JSON.stringify(reply));
  }

  private async execute(request: Request): Promise<Reply> {
    const { requestId } = request;
    const handler = this.handlers.get(request.name);
    try {
      if (!handler) throw new ApiError('internal', `no handler for forwarded command '${request.name}'`);
      const value = await this.runAt(
        request.conversationId,
        request.name,
        request.payload,
        () => handler(request.payload),
        request.hops,
      );
      return { requestId, ok: true, value };
    } catch (error) {
      if (error instanceof ApiError) return { requestId, ok: false, body: error.body };
      this.logger.error(
        `forwarded ${request.name} failed: ${String(error)}`,
        error instanceof Error ? error.stack : undefined,
      );
      return { requestId, ok: false, body: { error: { code: 'internal', message: 'internal error' } } };
    }
  }

  private requestsChannel(processId: string): string {
    return this.cluster.key('commands', processId);
  }

  private repliesChannel(processId = this.cluster.processId): string {
    return this.cluster.key('replies', processId);
  }
}
