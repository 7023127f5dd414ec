import { inject, Injectable, type OnDestroy, signal } from '@angular/core';
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

export const defaultSocketFactory: SocketFactory = (token) =>
  io({ path: '/socket.io', auth: { token }, transports: ['websocket', 'polling'] });

/**
 * The one Socket.IO connection of the app, typed end to end with libs/domain's event maps.
 * `request` turns an acknowledgement into a promise: the ack's values, or an ApiError.
 */
@Injectable({ providedIn: 'root' })
export class SocketClientService implements OnDestroy {
  private readonly session = inject(SessionService);
  private socket: TypedSocket | null = null;
  private socketToken: string | null = null;
  private factory: SocketFactory = defaultSocketFactory;
  private readonly connectedState = signal(false);
  private readonly connectListeners = new Set<() => void>();

  readonly connected = this.connectedState.asReadonly();

  useFactory(factory: SocketFactory): void {
    this.factory = factory;
  }

  /** Connects with the current token (again, if the token changed). */
  connect(): TypedSocket {
    const token = this.session.token();
    if (!token) throw new ApiError({ code: 'unauthenticated', message: 'Sign in first.' }, 401);
    if (this.socket && this.socketToken === token) return this.socket;
    this.disconnect();
    const socket = this.factory(token);
    this.socket = socket;
    this.socketToken = token;
    // Fires on the first connect and on every reconnect: listeners rejoin their rooms.
    socket.on('connect', () => {
      this.connectedState.set(true);
      for (const listener of this.connectListeners) listener();
    });
    socket.on('disconnect', () => this.connectedState.set(false));
    return socket;
  }

  disconnect(): void {
    this.socket?.disconnect();
    this.socket = null;
    this.socketToken = null;
    this.connectedState.set(false);
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
