import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Redis } from 'ioredis';
import { closeRedis } from '../redis/close-redis';
import { ClusterRedis } from '../redis/cluster-redis';
import { AgentTools } from './agent-tools';
import { AnswerRelay } from './answer-relay';

/** How long a session lasts unused before its record goes. */
const SESSION_TTL_S = 30 * 24 * 60 * 60;
/** How long a process keeps its copy of a session unused (with Redis any process rebuilds it). */
const LOCAL_IDLE_MS = 30 * 60 * 1000;
/** How often the unused copies are closed. */
const SWEEP_EVERY_MS = 5 * 60 * 1000;

/** One MCP session as this process holds it: the SDK's transport and server, and whose it is. */
export interface McpSession {
  readonly id: string;
  readonly ownerId: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  usedAt: number;
}

/** What any process needs to rebuild a session: whose it is, and how the client initialized it. */
interface SessionRecord {
  ownerId: string;
  initialize: unknown;
}

/**
 * MCP sessions (Streamable HTTP, `Mcp-Session-Id`), rebuildable on every api process: a session is
 * the client's `initialize` (its protocol version and capabilities: whether it can elicit) and its
 * owner, kept in Redis. A request whose session this process has not seen rebuilds it by replaying
 * that `initialize` through the SDK's transport, so a load balancer may send each request anywhere.
 * What a call does lives in the conversation, never in the session. Without Redis there is one
 * process and its copies are the sessions.
 */
@Injectable()
export class McpSessions implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpSessions');
  private readonly live = new Map<string, McpSession>();
  private readonly sweeper: NodeJS.Timeout;
  private subscriber: Redis | undefined;

  constructor(
    private readonly cluster: ClusterRedis,
    private readonly tools: AgentTools,
    private readonly relay: AnswerRelay,
  ) {
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  /**
   * A new session for `ownerId`'s `initialize` request; the transport names it when it answers
   * that request (handleRequest), and it is kept from then on.
   */
  async open(ownerId: string, initialize: unknown): Promise<McpSession> {
    let session: McpSession | undefined = undefined;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: async (id) => {
        if (!session) return;
        this.live.set(id, Object.assign(session, { id }));
        await this.cluster.client
          ?.set(this.key(id), JSON.stringify({ ownerId, initialize }), 'EX', SESSION_TTL_S)
          .catch((error: unknown) => this.logger.warn(`storing session ${id}: ${String(error)}`));
      },
      onsessionclosed: (id) => this.forget(id),
    });
    session = { id: '', ownerId, transport, usedAt: Date.now() };
    await this.connect(transport);
    return session;
  }

  /** The session `id` (here, or rebuilt from its record); null when there is none. */
  async find(id: string): Promise<McpSession | null> {
    const here = this.live.get(id);
    if (here) {
      here.usedAt = Date.now();
      return here;
    }
    const stored = await this.cluster.client?.get(this.key(id)).catch(() => null);
    if (!stored) return null;
    const record = JSON.parse(stored) as SessionRecord;
    return this.rebuild(id, record);
  }

  /** Hears sessions ended on other processes, so their copies here end too. */
  onModuleInit(): void {
    if (!this.cluster.client) return;
    this.subscriber = this.cluster.duplicate();
    this.subscriber.on('message', (_channel: string, id: string) => void this.drop(id));
    // Not waited for: with Redis away the api still starts, and ioredis subscribes once it is back.
    this.subscriber
      .subscribe(this.closedChannel())
      .catch((error: unknown) => this.logger.warn(`subscribing to ended sessions: ${String(error)}`));
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    await closeRedis(this.subscriber);
    await Promise.all([...this.live.values()].map((s) => s.transport.close().catch(() => undefined)));
    this.live.clear();
  }

  /** Replays the session's `initialize` through a fresh transport that takes the session's id. */
  private async rebuild(id: string, record: SessionRecord): Promise<McpSession> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessionclosed: (closed) => this.forget(closed),
    });
    await this.connect(transport);
    const replayed = await transport.handleRequest(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      }),
      { parsedBody: record.initialize },
    );
    // The client read its answer long ago; this one is only drained.
    await replayed.text();
    const session: McpSession = { id, ownerId: record.ownerId, transport, usedAt: Date.now() };
    // Another request may have rebuilt it meanwhile: the first one kept is the one used.
    const raced = this.live.get(id);
    if (raced) {
      await transport.close();
      return raced;
    }
    this.live.set(id, session);
    return session;
  }

  private async connect(transport: WebStandardStreamableHTTPServerTransport): Promise<Server> {
    const server = this.tools.server();
    server.onerror = (error) => this.logger.warn(`MCP: ${error.message}`);
    await server.connect(transport);
    this.relay.attach(transport);
    return server;
  }

  /** The client ended the session (DELETE): its record goes, on every process. */
  private async forget(id: string): Promise<void> {
    this.live.delete(id);
    await this.cluster.client?.del(this.key(id)).catch(() => undefined);
    await this.cluster.client?.publish(this.closedChannel(), id).catch(() => undefined);
  }

  /** A session ended elsewhere: this process's copy closes (its record is gone already). */
  private async drop(id: string): Promise<void> {
    const session = this.live.get(id);
    if (!session) return;
    this.live.delete(id);
    await session.transport.close().catch(() => undefined);
  }

  private closedChannel(): string {
    return this.cluster.key('mcp', 'sessions-ended');
  }

  /** Closes copies unused for a while; with Redis they are rebuilt when used again. */
  private async sweep(): Promise<void> {
    const idle = this.cluster.client ? LOCAL_IDLE_MS : SESSION_TTL_S * 1000;
    const before = Date.now() - idle;
    for (const [id, session] of this.live) {
      if (session.usedAt >= before) continue;
      this.live.delete(id);
      await session.transport.close().catch(() => undefined);
    }
  }

  private key(id: string): string {
    return this.cluster.key('mcp', 'session', id);
  }
}
