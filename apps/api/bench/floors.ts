/**
 * The servers the api bench measures against, each the least a server can do for one round trip:
 *
 * - the bare floor: a Socket.IO handler that acknowledges at once (the targets' floor);
 * - the durable echo: a Socket.IO handler that stores what it got with one autocommit INSERT on the
 *   same PostgreSQL (synchronous_commit on, as the api runs) and then acknowledges. It is the least
 *   any server does that keeps PROTOCOL.md's promise that an answer is stored before it is
 *   acknowledged and before the next question is asked; printed beside the targets so each run
 *   shows how much of a figure no implementation could avoid.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { Server } from 'socket.io';
import { io, type Socket } from 'socket.io-client';

/** A server the floor clients talk to: an `echo` event acknowledged with its payload. */
export interface FloorServer {
  url: string;
  close(): Promise<void>;
}

/** A bare Socket.IO server: one handler that acknowledges at once. */
export function bareServer(): Promise<FloorServer> {
  return echoServer((payload) => Promise.resolve(payload));
}

/**
 * A Socket.IO server that stores each payload with one durable INSERT before acknowledging it, on
 * `databaseUrl` through a pool as large as the api's (pg's default of 10).
 */
export async function durableEchoServer(databaseUrl: string): Promise<FloorServer> {
  const pool = new Pool({ connectionString: databaseUrl, max: 10, options: '-c jit=off' });
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_durable_echo (id bigserial PRIMARY KEY, payload jsonb NOT NULL)',
  );
  const server = await echoServer(async (payload) => {
    await pool.query('INSERT INTO bench_durable_echo (payload) VALUES ($1)', [JSON.stringify(payload)]);
    return payload;
  });
  return {
    url: server.url,
    close: async () => {
      await server.close();
      await pool.end();
    },
  };
}

async function echoServer(handle: (payload: unknown) => Promise<unknown>): Promise<FloorServer> {
  const http = createServer();
  const server = new Server(http, { serveClient: false });
  server.on('connection', (socket) =>
    socket.on('echo', (payload: unknown, ack: (answer: unknown) => void) => {
      handle(payload).then(ack, (error: unknown) => ack({ error: String(error) }));
    }),
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => void server.close(() => resolve())),
  };
}

/** Latencies (ms) of `rounds` sequential acknowledged emits from each of `clients` sockets at once. */
export async function roundTrips(url: string, clients: number, rounds: number): Promise<number[]> {
  const sockets = await Promise.all(
    Array.from(
      { length: clients },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
          socket.once('connect', () => resolve(socket));
          socket.once('connect_error', reject);
        }),
    ),
  );
  const samples: number[] = [];
  try {
    await Promise.all(
      sockets.map(async (socket) => {
        for (let i = 0; i < rounds; i++) {
          const sent = performance.now();
          const answer: unknown = await socket.emitWithAck('echo', { i });
          if ((answer as { i?: unknown } | null)?.i !== i)
            throw new Error(`the floor server answered ${JSON.stringify(answer)} to round ${i}`);
          samples.push(performance.now() - sent);
        }
      }),
    );
  } finally {
    for (const socket of sockets) socket.close();
  }
  return samples;
}
