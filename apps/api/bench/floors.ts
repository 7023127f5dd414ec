/**
 * The servers the api bench measures against, each the least a server can do for one round trip:
 *
 * - the bare floor: a Socket.IO handler that acknowledges at once (the targets' floor);
 * - the durable echo: a handler that stores what it got with one autocommit INSERT on the same
 *   PostgreSQL (synchronous_commit on, as the api runs), then acknowledges: the least any server
 *   pays that keeps PROTOCOL.md's promise that an answer is stored before it is acknowledged;
 * - the protocol echo: the durable echo that also sends, before its acknowledgement, the events
 *   the api sent per answer in the same run (`node` for every node, `head`, `status`, `elicit`,
 *   `token`, as PROTOCOL.md has them): what storing an answer and telling the client about a turn
 *   of this agent costs without running the agent or the tree store.
 *
 * The bench prints each figure against the last two beside its target, so every run shows how
 * much of the figure no implementation of the protocol could avoid.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { io, type Socket } from 'socket.io-client';
import type { Received } from '../reliability/src/support/live-client';

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
 * `databaseUrl` through a pool as large as the api's (pg's default of 10). With `turns`, it also
 * sends one turn's events (each answer the next turn, round robin) after storing and before
 * acknowledging, as the api sends a turn's events before its next elicit.
 */
export async function durableEchoServer(
  databaseUrl: string,
  turns: readonly (readonly Received[])[] = [],
): Promise<FloorServer> {
  const pool = new Pool({ connectionString: databaseUrl, max: 10, options: '-c jit=off' });
  // An idle connection the server drops (the bench's database dropped at the end) must not crash
  // the process, as it must not the api's (PgSqlClient).
  pool.on('error', () => undefined);
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_durable_echo (id bigserial PRIMARY KEY, payload jsonb NOT NULL)',
  );
  let next = 0;
  const server = await echoServer(async (payload, socket) => {
    await pool.query('INSERT INTO bench_durable_echo (payload) VALUES ($1)', [JSON.stringify(payload)]);
    const turn = turns.length > 0 ? turns[next++ % turns.length] : undefined;
    for (const { event, payload: sent } of turn ?? []) socket.emit(event, sent);
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

async function echoServer(
  handle: (payload: unknown, socket: ServerSocket) => Promise<unknown>,
): Promise<FloorServer> {
  const http = createServer();
  const server = new Server(http, { serveClient: false });
  server.on('connection', (socket) =>
    socket.on('echo', (payload: unknown, ack: (answer: unknown) => void) => {
      handle(payload, socket).then(ack, (error: unknown) => ack({ error: String(error) }));
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
