import type { ClientEventName, ServerEventName, ServerEventPayload } from '@sweatpants/domain';

import type { TypedSocket } from '../app/core/socket-client.service';

type Listener = (payload: unknown) => void;
type AckHandler = (event: ClientEventName, payload: unknown) => object;

/** Enough of a Socket.IO client socket to drive the client: server events in, acks out. */
export class FakeSocket {
  connected = false;
  readonly emitted: { event: ClientEventName; payload: unknown }[] = [];
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(private readonly ack: AckHandler) {}

  on(event: string, listener: Listener): this {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)?.add(listener);
    return this;
  }

  off(event: string, listener: Listener): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  emit(event: ClientEventName, payload: unknown, callback: (answer: object) => void): this {
    this.emitted.push({ event, payload });
    queueMicrotask(() => callback(this.ack(event, payload)));
    return this;
  }

  disconnect(): this {
    this.connected = false;
    return this;
  }

  /** The server connects (or reconnects) the socket. */
  connect(): void {
    this.connected = true;
    for (const listener of this.listeners.get('connect') ?? []) listener(undefined);
  }

  /** The server sends an event. */
  serverSends<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void {
    for (const listener of this.listeners.get(event) ?? []) listener(payload);
  }

  asSocket(): TypedSocket {
    return this as unknown as TypedSocket;
  }
}
