import { io, type Socket } from 'socket.io-client';

import type {
  Ack,
  ClientAckValues,
  ClientEventName,
  ClientEventPayload,
  ClientToServerEvents,
  ElicitEvent,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
} from '@sweatpants/domain';

type TypedSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** One event the server sent, in arrival order. */
export interface Received<E extends ServerEventName = ServerEventName> {
  event: E;
  payload: ServerEventPayload<E>;
  at: number;
}

const SERVER_EVENTS: ServerEventName[] = [
  'node',
  'head',
  'status',
  'elicit',
  'elicit:withdrawn',
  'notify',
  'token',
];
const ACK_TIMEOUT_MS = 30_000;

/**
 * A browser tab's Socket.IO connection to one api process: it records every server event, answers
 * with acknowledgements, and can move to another process (as a load balancer would send a
 * reconnect elsewhere when its process died), joining its conversations again there.
 */
export class LiveClient {
  readonly received: Received[] = [];
  private socket: TypedSocket;
  private readonly joined = new Set<string>();
  private waiters: (() => void)[] = [];
  private readonly openByConversation = new Map<string, Map<string, ElicitEvent>>();

  private constructor(
    private url: string,
    private readonly token: string,
  ) {
    this.socket = this.open(url);
  }

  /** Connects over the WebSocket transport and resolves once the handshake is accepted. */
  static async connect(url: string, token: string): Promise<LiveClient> {
    const client = new LiveClient(url, token);
    await client.whenConnected();
    return client;
  }

  get baseUrl(): string {
    return this.url;
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  private open(url: string): TypedSocket {
    const socket: TypedSocket = io(url, {
      path: '/socket.io',
      auth: { token: this.token },
      transports: ['websocket'],
      reconnection: true,
      reconnectionDelay: 200,
      reconnectionDelayMax: 1_000,
      timeout: 10_000,
    });
    for (const event of SERVER_EVENTS) {
      socket.on(event, ((payload: ServerEventPayload<typeof event>) => {
        this.received.push({ event, payload, at: performance.now() } as Received);
        this.track(event, payload);
        this.wake();
      }) as never);
    }
    // Socket.IO reconnects by itself to the same process; joins do not survive a reconnect.
    socket.io.on('reconnect', () => void this.rejoin());
    return socket;
  }

  private whenConnected(): Promise<void> {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => {
        this.socket.off('connect', onConnect);
        reject(error);
      };
      const onConnect = () => {
        this.socket.off('connect_error', onError);
        resolve();
      };
      this.socket.once('connect', onConnect);
      this.socket.once('connect_error', onError);
    });
  }

  /** Sends a client event and resolves with its acknowledgement (rejects if none comes). */
  async emit<E extends ClientEventName>(
    event: E,
    payload: ClientEventPayload<E>,
  ): Promise<Ack<ClientAckValues[E]>> {
    const emitter = this.socket.timeout(ACK_TIMEOUT_MS) as unknown as {
      emitWithAck(event: E, payload: ClientEventPayload<E>): Promise<Ack<ClientAckValues[E]>>;
    };
    return emitter.emitWithAck(event, payload);
  }

  /** Sends an arbitrary frame, for the fuzzer: any event name, any arguments, no ack expected. */
  emitRaw(event: string, ...args: unknown[]): void {
    (this.socket as unknown as { emit(event: string, ...args: unknown[]): void }).emit(event, ...args);
  }

  /** Sends an arbitrary frame with an ack callback; resolves with the ack, or undefined if none came. */
  emitRawWithAck(event: string, args: unknown[], limitMs: number): Promise<unknown> {
    const socket = this.socket.timeout(limitMs) as unknown as {
      emit(event: string, ...args: unknown[]): void;
    };
    return new Promise((resolve) =>
      socket.emit(event, ...args, (error: Error | null, ack: unknown) => resolve(error ? undefined : ack)),
    );
  }

  /** Writes a raw Engine.IO message that Socket.IO cannot decode (the server drops the connection). */
  emitRawPacket(data: string): void {
    const engine = (this.socket.io as unknown as { engine?: { write(data: string): void } }).engine;
    engine?.write(data);
  }

  async join(conversationId: string): Promise<Ack<ClientAckValues['conversation:join']>> {
    const ack = await this.emit('conversation:join', { conversationId });
    if (ack.ok) this.joined.add(conversationId);
    return ack;
  }

  private async rejoin(): Promise<void> {
    for (const conversationId of this.joined) {
      await this.emit('conversation:join', { conversationId }).catch(() => undefined);
    }
  }

  /** Leaves this process for another: a new connection there, joined to the same conversations. */
  async moveTo(url: string): Promise<void> {
    this.socket.removeAllListeners();
    this.socket.io.removeAllListeners();
    this.socket.disconnect();
    this.url = url;
    this.socket = this.open(url);
    await this.whenConnected();
    await this.rejoin();
  }

  close(): void {
    this.socket.disconnect();
    this.wake();
  }

  /** The events of one kind for one conversation, in arrival order. */
  events<E extends ServerEventName>(event: E, conversationId?: string): ServerEventPayload<E>[] {
    return this.received
      .filter((r) => r.event === event)
      .map((r) => r.payload as ServerEventPayload<E>)
      .filter((p) => conversationId === undefined || p.conversationId === conversationId);
  }

  /**
   * Resolves with the first recorded value `pick` returns (looking again at each new event), or
   * rejects after `limitMs`: a guard against a hang, not a speed assertion.
   */
  async waitFor<T>(pick: () => T | undefined, what: string, limitMs = 60_000): Promise<T> {
    const deadline = Date.now() + limitMs;
    for (;;) {
      const value = pick();
      if (value !== undefined) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${limitMs / 1000}s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1_000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * The first elicit for the conversation not in `answered` and not withdrawn after it was sent
   * (one sent again after a withdrawal, as a takeover does, counts again).
   */
  nextElicit(conversationId: string, answered: ReadonlySet<string>, limitMs?: number): Promise<ElicitEvent> {
    return this.waitFor(
      () => this.openElicits(conversationId).find((e) => !answered.has(e.elicitId)),
      `new elicit in ${conversationId}`,
      limitMs,
    );
  }

  /** The conversation's elicits that were sent and not withdrawn since, oldest first. */
  openElicits(conversationId: string): ElicitEvent[] {
    return [...(this.openByConversation.get(conversationId)?.values() ?? [])];
  }

  /**
   * Keeps each conversation's open elicits as events arrive (a load test waits on them after every
   * event, so reading them must not cost a scan of everything received).
   */
  private track(event: ServerEventName, payload: ServerEventPayload<ServerEventName>): void {
    if (event !== 'elicit' && event !== 'elicit:withdrawn') return;
    let open = this.openByConversation.get(payload.conversationId);
    if (!open) this.openByConversation.set(payload.conversationId, (open = new Map()));
    const { elicitId } = payload as ServerEventPayload<'elicit:withdrawn'>;
    // Sent again, it counts as the newest.
    open.delete(elicitId);
    if (event === 'elicit') open.set(elicitId, payload as ElicitEvent);
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
