import { effect, inject, Injectable, type OnDestroy, signal } from '@angular/core';
import type {
  Ack,
  ClientAckValues,
  ClientEventName,
  ClientEventPayload,
  ClientToServerEvents,
  ServerEventName,
  ServerToClientEvents,
} from '@sweatpants/domain';
import { io, type Socket } from 'socket.io-client';

import { ApiError } from './api-error';
import { SessionService } from './session.service';

export type TypedSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Long enough for a slow api, short enough that a lost ack does not leave a button spinning. */
const ACK_TIMEOUT_MS = 15_000;

/** Builds the socket; a seam so tests can hand in a fake. */
export type SocketFactory = (token: string) => TypedSocket;

/** When a refresh could not reach the api, the socket tries to connect again after this. */
const RECONNECT_RETRY_MS = 5_000;

/** Whether a connect_error is the handshake refusing the token (PROTOCOL.md: `data.code`). */
const refusedToken = (error: Error): boolean =>
  (error as Error & { data?: { code?: unknown } }).data?.code === 'unauthenticated';

export const defaultSocketFactory: SocketFactory = (token) =>
  io({ path: '/socket.io', auth: { token }, transports: ['websocket', 'polling'] });

/**
 * The one Socket.IO connection of the app, typed end to end with libs/domain's event maps.
 * `request` turns an acknowledgement into a promise: the ack's values, or an ApiError.
 *
 * The socket outlives each access token: the api checks the token at the handshake only, and every
 * (re)connect asks the session for the current one. A handshake refused (the token expired while
 * the socket was away) or the api closing the socket (the token was taken back) refreshes the
 * session once and connects again; when the session is over, the person is sent to sign in.
 */
@Injectable({ providedIn: 'root' })
export class SocketClientService implements OnDestroy {
  private readonly session = inject(SessionService);
  private socket: TypedSocket | null = null;
  /** whose socket it is: a new person signed in gets a new one */
  private socketUser: string | null = null;
  /** the token the last handshake sent, which a refusal refers to */
  private handshakeToken: string | null = null;
  /** set once a refused handshake was retried with a fresh token; a second refusal ends the session */
  private retriedAuth = false;
  private factory: SocketFactory = defaultSocketFactory;
  private readonly connectedState = signal(false);
  private readonly connectListeners = new Set<() => void>();

  readonly connected = this.connectedState.asReadonly();

  constructor() {
    // Signed out (here, or by an ended session): nothing more may arrive for the person who was.
    effect(() => {
      if (this.session.user()?.id !== this.socketUser && this.socket) this.disconnect();
    });
  }

  useFactory(factory: SocketFactory): void {
    this.factory = factory;
  }

  /** Connects as the signed-in person (again, if someone else signed in since). */
  connect(): TypedSocket {
    const token = this.session.token();
    const user = this.session.user()?.id ?? null;
    if (!token) throw new ApiError({ code: 'unauthenticated', message: 'Sign in first.' }, 401);
    if (this.socket && this.socketUser === user) return this.socket;
    this.disconnect();
    const socket = this.factory(token);
    this.socket = socket;
    this.socketUser = user;
    this.handshakeToken = token;
    // Asked at every (re)connect, so a reconnect after a refresh sends the fresh token.
    socket.auth = (send: (data: object) => void) => {
      this.handshakeToken = this.session.token();
      send({ token: this.handshakeToken ?? '' });
    };
    // Fires on the first connect and on every reconnect: listeners rejoin their rooms.
    socket.on('connect', () => {
      this.retriedAuth = false;
      this.connectedState.set(true);
      for (const listener of this.connectListeners) listener();
    });
    socket.on('disconnect', (reason) => {
      this.connectedState.set(false);
      // The api closed it: the token was taken back (sign-out everywhere, a new password).
      if (reason === 'io server disconnect') this.reauthenticate(socket);
    });
    socket.on('connect_error', (error) => {
      if (refusedToken(error)) this.reauthenticate(socket);
    });
    return socket;
  }

  disconnect(): void {
    this.socket?.disconnect();
    this.socket = null;
    this.socketUser = null;
    this.handshakeToken = null;
    this.retriedAuth = false;
    this.connectedState.set(false);
  }

  /**
   * The api refused the socket's token: refresh the session once and connect again, or, when the
   * session is over (or a fresh token is refused too), let the session send the person to sign in.
   * Socket.IO does not retry a refused handshake or a server's disconnect by itself.
   */
  private reauthenticate(socket: TypedSocket): void {
    const refused = this.handshakeToken;
    if (refused === null || socket !== this.socket) return;
    if (this.retriedAuth) {
      this.session.expire(refused);
      return;
    }
    this.retriedAuth = true;
    this.session.refreshAfter(refused).then(
      (fresh) => {
        if (socket !== this.socket) return;
        if (fresh === null) this.session.expire(refused);
        else socket.connect();
      },
      () => {
        // The api is out of reach: try again in a while, as a dropped connection would.
        this.retriedAuth = false;
        setTimeout(() => {
          if (socket === this.socket) socket.connect();
        }, RECONNECT_RETRY_MS);
      },
    );
  }

  /** Calls `listener` whenever the socket (re)connects, and now if it is connected. */
  onConnect(listener: () => void): () => void {
    this.connectListeners.add(listener);
    if (this.socket?.connected) listener();
    return () => this.connectListeners.delete(listener);
  }

  /** Subscribes to a server event; returns the unsubscribe. */
  on<E extends ServerEventName>(event: E, listener: ServerToClientEvents[E]): () => void {
    const socket = this.connect();
    // socket.io-client's listener type is the event map's entry itself; the casts only narrow the key.
    socket.on(event, listener as never);
    return () => {
      socket.off(event, listener as never);
    };
  }

  /** Emits a client event and waits for its ack; rejects with the ack's error or a timeout. */
  async request<E extends ClientEventName>(
    event: E,
    payload: ClientEventPayload<E>,
  ): Promise<ClientAckValues[E]> {
    const socket = this.connect();
    // ClientToServerEvents[E] for a generic E is opaque to TypeScript; this is that signature spelled out.
    const emit = socket.emit.bind(socket) as (
      name: E,
      body: ClientEventPayload<E>,
      callback: (answer: Ack<ClientAckValues[E]>) => void,
    ) => void;
    const ack = await new Promise<Ack<ClientAckValues[E]>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ApiError({ code: 'internal', message: 'The server did not answer in time.' }, 0)),
        ACK_TIMEOUT_MS,
      );
      emit(event, payload, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
    if (!ack.ok) throw new ApiError(ack.error, 0);
    return ack;
  }

  ngOnDestroy(): void {
    this.disconnect();
  }
}
