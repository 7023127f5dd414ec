import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCResultResponse,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Redis } from 'ioredis';
import { closeRedis } from '../redis/close-redis';
import { ClusterRedis } from '../redis/cluster-redis';
import { settledWithin } from './conversation-signals';

/** How long asking waits for the answers' channel before it asks anyway (Redis may be away). */
const SUBSCRIBE_WAIT_MS = 1_000;

/** Per session: this process's questions still unanswered (by wire id, to the SDK's id), and how to hand answers in. */
interface Asking {
  ids: Map<RequestId, RequestId>;
  deliver: (message: JSONRPCMessage) => void;
}

/**
 * A client's answers to what the server asked it (an `elicitation/create`), delivered to the api
 * process that asked. The question goes out on the stream of the tool call, on the process the call
 * landed on; the client POSTs its answer to `/mcp` like any message, and a load balancer may send
 * that POST to another process, whose copy of the session never asked. There the answer is
 * published on the session's Redis channel, which the process that asked listens on while it waits
 * for one; the SDK's own Protocol then takes it as if it had arrived there. Without Redis there is
 * one process and nothing to relay.
 */
@Injectable()
export class AnswerRelay implements OnApplicationShutdown {
  private readonly logger = new Logger('McpRelay');
  private readonly asking = new Map<string, Asking>();
  private subscriber: Redis | undefined;

  constructor(private readonly cluster: ClusterRedis) {}

  /**
   * Puts the relay between `transport` and the SDK's server connected to it (call after connect):
   * requests the server sends are noted, and answers to another process's requests are passed on.
   */
  attach(transport: Transport): void {
    // The transport names its session when it answers `initialize`, before anything is asked.
    const session = () => transport.sessionId ?? '';
    const send = transport.send.bind(transport);
    const deliver = transport.onmessage?.bind(transport);
    if (!deliver) throw new Error('attach the relay after the server is connected');
    // Each process's copy of a session numbers its requests from 0, so two processes asking in
    // one session would send the same id, and an answer relayed to the wrong one would be taken
    // as its own. On the wire a request carries this process's id in front of the SDK's.
    const ids = new Map<RequestId, RequestId>();
    const wireId = (id: RequestId): string => `${this.cluster.processId}:${id}`;
    const entry = {
      ids,
      deliver: (message: JSONRPCMessage) => deliver(message),
    };
    transport.send = async (message, options) => {
      if (isJSONRPCRequest(message)) {
        if (ids.size === 0) await this.listen(session(), entry);
        const id = wireId(message.id);
        ids.set(id, message.id);
        return send({ ...message, id }, options);
      }
      if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
        // A question taken back (answered elsewhere, or the call ended) will get no answer.
        const asked = message.params?.['requestId'];
        if (typeof asked === 'string' || typeof asked === 'number') {
          const id = wireId(asked);
          if (ids.delete(id) && ids.size === 0) this.quiet(session());
          return send({ ...message, params: { ...message.params, requestId: id } }, options);
        }
      }
      return send(message, options);
    };
    transport.onmessage = (message, extra) => {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        const id = message.id;
        if (id !== undefined && !ids.has(id)) return this.pass(session(), message);
        if (id !== undefined) return this.answered(session(), entry, message);
      }
      deliver(message, extra);
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await closeRedis(this.subscriber);
  }

  private pass(sessionId: string, message: JSONRPCMessage): void {
    this.cluster.client
      ?.publish(this.channel(sessionId), JSON.stringify(message))
      .catch((error: unknown) => this.logger.warn(`relaying an answer: ${String(error)}`));
  }

  private async listen(sessionId: string, entry: Asking): Promise<void> {
    this.asking.set(sessionId, entry);
    if (!this.cluster.client) return;
    if (!this.subscriber) {
      this.subscriber = this.cluster.duplicate();
      this.subscriber.on('message', (channel: string, text: string) => this.received(channel, text));
    }
    await settledWithin(
      this.subscriber
        .subscribe(this.channel(sessionId))
        .catch((error: unknown) => this.logger.warn(`listening for answers: ${String(error)}`)),
      SUBSCRIBE_WAIT_MS,
    );
  }

  private received(channel: string, text: string): void {
    const prefix = this.channel('');
    if (!channel.startsWith(prefix)) return;
    const sessionId = channel.slice(prefix.length);
    const entry = this.asking.get(sessionId);
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!entry || !(isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message))) return;
    this.answered(sessionId, entry, message);
  }

  /** Hands the SDK the answer to one of this process's questions, under the id the SDK gave it. */
  private answered(
    sessionId: string,
    entry: Asking,
    message: JSONRPCResultResponse | JSONRPCErrorResponse,
  ): void {
    const id = message.id === undefined ? undefined : entry.ids.get(message.id);
    if (id === undefined || message.id === undefined) return;
    entry.ids.delete(message.id);
    entry.deliver({ ...message, id });
    if (entry.ids.size === 0) this.quiet(sessionId);
  }

  private quiet(sessionId: string): void {
    this.asking.delete(sessionId);
    this.subscriber
      ?.unsubscribe(this.channel(sessionId))
      .catch((error: unknown) => this.logger.warn(`unsubscribing: ${String(error)}`));
  }

  private channel(sessionId: string): string {
    return this.cluster.key('mcp', 'answers', sessionId);
  }
}
