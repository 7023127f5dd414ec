import type {
  Ack,
  ClientAckValues,
  ClientEventName,
  ClientToServerEvents,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
} from '@sweatpants/domain';
import { io, type Socket } from 'socket.io-client';
import type { TestApi } from './test-api';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A connected socket for `token`; rejects with the server's refusal when the handshake fails. */
export function connect(api: Pick<TestApi, 'base'>, token: string | undefined): Promise<ClientSocket> {
  const socket: ClientSocket = io(api.base, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(token !== undefined ? { auth: { token } } : {}),
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** Sends an event and resolves with its acknowledgement. */
export function request<E extends ClientEventName>(
  socket: ClientSocket,
  event: E,
  payload: unknown,
): Promise<Ack<ClientAckValues[E]>> {
  return new Promise((resolve) => {
    const emit = socket.emit.bind(socket) as (e: string, p: unknown, ack: (a: unknown) => void) => void;
    emit(event, payload, (answer) => resolve(answer as Ack<ClientAckValues[E]>));
  });
}

/** How long `record(...).next` waits: under jest's 30 s, so the test reports the wait, not a timeout. */
const EVENT_WAIT_MS = 20_000;

function describe(values: readonly unknown[]): string {
  const text = JSON.stringify(values);
  return `${values.length} ${text.length > 2000 ? `${text.slice(0, 2000)}…` : text}`;
}

/**
 * Every event of one name the socket receives, from now on, so a test can wait for the one it
 * expects whatever order the others arrive in.
 */
export function record<E extends ServerEventName>(socket: ClientSocket, event: E) {
  const seen: ServerEventPayload<E>[] = [];
  const waiters: {
    match: (e: ServerEventPayload<E>) => boolean;
    resolve: (e: ServerEventPayload<E>) => void;
  }[] = [];
  const on = socket.on.bind(socket) as (
    e: string,
    listener: (payload: ServerEventPayload<E>) => void,
  ) => void;
  on(event, (payload) => {
    seen.push(payload);
    for (const waiter of [...waiters]) {
      if (waiter.match(payload)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(payload);
      }
    }
  });
  return {
    seen,
    /** the first event (already seen or still to come) that matches */
    next(match: (e: ServerEventPayload<E>) => boolean = () => true): Promise<ServerEventPayload<E>> {
      const found = seen.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        // Fails with what did arrive, well before the test's own timeout, so a hang says where.
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(
            new Error(`no matching '${event}' event within ${EVENT_WAIT_MS} ms; seen: ${describe(seen)}`),
          );
        }, EVENT_WAIT_MS);
        const waiter = {
          match,
          resolve: (e: ServerEventPayload<E>) => {
            clearTimeout(timer);
            resolve(e);
          },
        };
        waiters.push(waiter);
      });
    },
  };
}
