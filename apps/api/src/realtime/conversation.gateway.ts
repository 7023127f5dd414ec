import { Inject, Logger } from '@nestjs/common';
import { SpanKind, trace } from '@opentelemetry/api';
import { Metrics } from '../observability/metrics';
import {
  Ack,
  ConnectedSocket,
  MessageBody,
  SubscribeMessage,
  WebSocketGateway,
  type OnGatewayConnection,
  type OnGatewayInit,
} from '@nestjs/websockets';
import {
  ClientEventSchemas,
  conversationRoom,
  type Ack as AckAnswer,
  type ClientAckValues,
  type ClientEventName,
  type ClientEventPayload,
  type ClientToServerEvents,
  type ConversationCommand,
  type ConversationRecord,
  type ServerToClientEvents,
  type SocketCommandEvent,
  SOCKET_COMMANDS,
} from '@sweatpants/domain';
import type { Socket } from 'socket.io';
import type { AuthUser } from '../auth/auth-user';
import { AuthService } from '../auth/auth.service';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ConversationAccess } from '../conversations/conversation-access';
import { ConversationCommands } from '../conversations/conversation-commands';
import { ApiError } from '../errors/api-error';
import { RATE_LIMITER, type RateLimiter } from '../rate-limit/rate-limiter';
import { continuedSpan } from '../tracing/in-span';
import { GEN_AI, SWEATPANTS } from '../tracing/span-attributes';
import { fieldProblems, invalidRequest } from '../validation/field-problems';
import { OnAppEvent, type AppEventMap, type ConversationEvent } from '../events/app-events';
import { toRoom, type ConversationServer } from './room-sink';

/**
 * A socket's user, and the conversations it joined as access read them then: its answers and
 * messages there are not checked against the database again (see `joined`).
 */
interface SocketData {
  user: AuthUser;
  joined?: Map<string, ConversationRecord>;
}
type ConversationSocket = Socket<ClientToServerEvents, ServerToClientEvents, object, SocketData>;
/** What an event does as the socket's user: its ack's value, and what to send after the ack. */
type EventWork<E extends ClientEventName> = (
  user: AuthUser,
  payload: ClientEventPayload<E>,
) => Promise<{ value: ClientAckValues[E]; after?: () => Promise<void> }>;
type AckFn<E extends ClientEventName> = ((answer: AckAnswer<ClientAckValues[E]>) => void) | undefined;

/** The room of one person's sockets, on every api process. */
const userRoom = (userId: string): string => `user:${userId}`;
/** The room of the sockets one personal access token opened, so revoking it can close them. */
const accessTokenRoom = (tokenId: string): string => `access-token:${tokenId}`;
/** The sockets a session (one signed-in device) opened: they close when it is signed out. */
const sessionRoom = (sessionId: string): string => `session:${sessionId}`;

/**
 * PROTOCOL.md's WebSocket: the token is checked in the handshake (a bad or missing one never
 * connects), every client → server event is validated and answered through its acknowledgement,
 * and server → client events reach the conversation's room through ConversationEvents.
 */
@WebSocketGateway({ path: '/socket.io' })
export class ConversationGateway implements OnGatewayInit<ConversationServer>, OnGatewayConnection {
  private readonly logger = new Logger('Gateway');
  private readonly limit: number;
  /** the Socket.IO server, once Nest has made it */
  private server: ConversationServer | undefined;

  constructor(
    private readonly auth: AuthService,
    private readonly access: ConversationAccess,
    private readonly commands: ConversationCommands,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.limit = config.rateLimit.wsPerMinute;
  }

  /** A conversation's event, said by its services: to its room, on every api process. */
  @OnAppEvent('conversation.event')
  relay(event: ConversationEvent): void {
    if (this.server) toRoom(this.server, event);
  }

  /**
   * A revoked token's sockets close. Every api process hears of each revocation (TokenRevocations
   * carries it between them), so each closes its own.
   */
  @OnAppEvent('token.revoked')
  closeSockets({ userId }: AppEventMap['token.revoked']): void {
    this.server?.local.in(userRoom(userId)).disconnectSockets(true);
  }

  /** A revoked personal access token's sockets close, on each process as it hears of it. */
  @OnAppEvent('access-token.revoked')
  closeAccessTokenSockets({ tokenId }: AppEventMap['access-token.revoked']): void {
    this.server?.local.in(accessTokenRoom(tokenId)).disconnectSockets(true);
  }

  /** A signed-out session's sockets close, on each process as it hears of it. */
  @OnAppEvent('session.revoked')
  closeSessionSockets({ sessionId }: AppEventMap['session.revoked']): void {
    this.server?.local.in(sessionRoom(sessionId)).disconnectSockets(true);
  }

  afterInit(server: ConversationServer): void {
    this.server = server;
    // This process's own sockets (the adapter fans events out; each process counts its clients).
    this.metrics.read({ socketConnections: () => server.sockets.sockets.size });
    // Middleware runs before the connection is accepted: a refused one gets `connect_error`.
    server.use((socket, next) => {
      const token: unknown = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
      const verified = typeof token === 'string' ? this.auth.verifyToken(token) : Promise.resolve(null);
      verified.then(
        (user) => {
          if (!user) return next(refusal('unauthenticated', 'a valid token is required: auth: {token}'));
          (socket.data as SocketData).user = user;
          next();
        },
        (error: unknown) => next(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }

  /** Per-user limits on events (RATE_LIMIT_WS_PER_MINUTE): beyond them, the ack says `rate_limited`. */
  handleConnection(socket: ConversationSocket): void {
    // Each person's sockets share a room, so taking their tokens back can close them all.
    void socket.join(userRoom(socket.data.user.id));
    const via = socket.data.user.via;
    if (via.kind === 'token') void socket.join(accessTokenRoom(via.tokenId));
    if (via.kind === 'session' && via.sessionId !== undefined) void socket.join(sessionRoom(via.sessionId));
    this.listenForCommands(socket);
    socket.use((packet, next) => {
      const ack = packet.at(-1);
      this.limiter.hit(`ws:user:${socket.data.user.id}`, this.limit).then(
        (decision) => {
          if (decision.allowed) return next();
          if (typeof ack === 'function') {
            const error = new ApiError(
              'rate_limited',
              `too many events: try again in ${decision.retryAfterSeconds}s`,
            );
            (ack as (answer: unknown) => void)({ ok: false, error: error.body.error });
          }
        },
        () => next(),
      );
    });
  }

  @SubscribeMessage('conversation:join')
  join(
    @ConnectedSocket() socket: ConversationSocket,
    @MessageBody() body: unknown,
    @Ack() ack: AckFn<'conversation:join'>,
  ) {
    return this.handle('conversation:join', socket, body, ack, async (user, payload) => {
      const record = await this.access.owned(user, payload.conversationId);
      await socket.join(conversationRoom(record.id));
      (socket.data.joined ??= new Map()).set(record.id, record);
      const conversation = await this.commands.run(user, record, { kind: 'view' });
      // After the ack: what the conversation waits on, sent again (same elicit ids).
      return { value: { conversation }, after: () => this.resendPending(socket, user, record) };
    });
  }

  @SubscribeMessage('conversation:leave')
  leave(
    @ConnectedSocket() socket: ConversationSocket,
    @MessageBody() body: unknown,
    @Ack() ack: AckFn<'conversation:leave'>,
  ) {
    return this.handle('conversation:leave', socket, body, ack, async (user, payload) => {
      const record = await this.access.owned(user, payload.conversationId);
      socket.data.joined?.delete(record.id);
      await socket.leave(conversationRoom(record.id));
      return { value: {} };
    });
  }

  @SubscribeMessage('message:send')
  send(
    @ConnectedSocket() socket: ConversationSocket,
    @MessageBody() body: unknown,
    @Ack() ack: AckFn<'message:send'>,
  ) {
    return this.handle('message:send', socket, body, ack, async (user, payload) => {
      const record = await this.joined(socket, payload.conversationId);
      const { node } = await this.commands.send(user, record, payload);
      return { value: { node } };
    });
  }

  @SubscribeMessage('elicit:response')
  respond(
    @ConnectedSocket() socket: ConversationSocket,
    @MessageBody() body: unknown,
    @Ack() ack: AckFn<'elicit:response'>,
  ) {
    return this.handle('elicit:response', socket, body, ack, async (user, payload) => {
      const record = await this.joined(socket, payload.conversationId);
      const answer = {
        action: payload.action,
        ...(payload.content !== undefined ? { content: payload.content } : {}),
      };
      const { node } = await this.commands.respond(user, record, payload.elicitId, answer);
      return { value: { node } };
    });
  }

  /**
   * The conversation as the socket read it when it joined, for a message or an answer there: the
   * turn's own path then reads nothing more before its write. What such a record can say that is
   * no longer true is safe here: a conversation's owner never changes; a revoked token's sockets
   * close; an archived conversation's runner is closed, opens again only after the store says it
   * is live (ActorRunner), and its tree takes no more writes; and an empty title is tried once
   * (ConversationTitles). A socket that did not join is checked as every other event is.
   */
  private joined(socket: ConversationSocket, conversationId: string): Promise<ConversationRecord> {
    const record = socket.data.joined?.get(conversationId);
    return record ? Promise.resolve(record) : this.access.owned(socket.data.user, conversationId);
  }

  /**
   * The client events that are conversation commands as they are (SOCKET_COMMANDS): each parsed,
   * its conversation's access checked, run as its command, and acknowledged with the command's
   * result. Listened for on each socket from the table rather than by seven decorated methods of
   * one shape; the rate limit above covers them as it covers the rest.
   */
  private listenForCommands(socket: ConversationSocket): void {
    // Socket.IO's typed `on` takes one event name at a time; the payload is parsed in `handle`.
    const untyped: Socket = socket;
    for (const event of Object.keys(SOCKET_COMMANDS) as SocketCommandEvent[]) {
      untyped.on(event, (body: unknown, ack: unknown) => {
        void this.command(
          event,
          socket,
          body,
          typeof ack === 'function' ? (ack as AckFn<typeof event>) : undefined,
        );
      });
    }
  }

  private command<E extends SocketCommandEvent>(
    event: E,
    socket: ConversationSocket,
    body: unknown,
    ack: AckFn<E>,
  ): Promise<void> {
    return this.handle(event, socket, body, ack, async (user, payload) => {
      const record = await this.access.owned(user, payload.conversationId);
      const command: (payload: ClientEventPayload<E>) => ConversationCommand = SOCKET_COMMANDS[event];
      const result = await this.commands.run(user, record, command(payload));
      // The table pairs each event with its command's kind, so this is that kind's result.
      return { value: result as ClientAckValues[E] };
    });
  }

  /**
   * One event: its payload checked with libs/domain's schema, `work` run as the socket's user, and
   * the outcome acknowledged as `{ok: true, ...}` or `{ok: false, error}` in PROTOCOL.md's shape.
   */
  private handle<E extends ClientEventName>(
    event: E,
    socket: ConversationSocket,
    body: unknown,
    ack: AckFn<E>,
    work: EventWork<E>,
  ): Promise<void> {
    // No instrumentation sees a Socket.IO event: each is the root of its trace, as a request is.
    const conversationId = (body as { conversationId?: unknown } | null)?.conversationId;
    const attributes = {
      [SWEATPANTS.socketEvent]: event,
      ...(typeof conversationId === 'string' ? { [GEN_AI.conversationId]: conversationId } : {}),
    };
    return continuedSpan(`socket ${event}`, { kind: SpanKind.SERVER, attributes }, undefined, () =>
      this.answer(event, socket, body, ack, work),
    );
  }

  private async answer<E extends ClientEventName>(
    event: E,
    socket: ConversationSocket,
    body: unknown,
    ack: AckFn<E>,
    work: EventWork<E>,
  ): Promise<void> {
    let answer: AckAnswer<ClientAckValues[E]>;
    let after: (() => Promise<void>) | undefined;
    try {
      const parsed = ClientEventSchemas[event].safeParse(body);
      if (!parsed.success) throw invalidRequest(fieldProblems(parsed.error, 'payload'));
      const done = await work(socket.data.user, parsed.data as ClientEventPayload<E>);
      answer = { ok: true, ...done.value };
      after = done.after;
    } catch (error) {
      answer = { ok: false, error: this.errorBody(event, error) };
      trace.getActiveSpan()?.setAttribute('error.type', answer.error.code);
    }
    ack?.(answer);
    await after?.().catch((error: unknown) => this.logger.warn(`${event}: ${String(error)}`));
  }

  private errorBody(event: string, error: unknown) {
    if (error instanceof ApiError) {
      const { code, message, details } = error.body.error;
      if (code === 'unavailable') return { code: 'internal' as const, message };
      return details === undefined ? { code, message } : { code, message, details };
    }
    this.logger.error(`${event} failed: ${error instanceof Error ? error.message : String(error)}`);
    return { code: 'internal' as const, message: 'internal error' };
  }

  private async resendPending(
    socket: ConversationSocket,
    user: AuthUser,
    record: ConversationRecord,
  ): Promise<void> {
    for (const event of await this.commands.run(user, record, { kind: 'pending' }))
      socket.emit('elicit', event);
  }
}

/** A handshake refusal: Socket.IO hands the client `err.message` and `err.data`. */
function refusal(code: string, message: string): Error {
  return Object.assign(new Error(message), { data: { code, message } });
}
