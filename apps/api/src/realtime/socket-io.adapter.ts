import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import type { Socket } from 'node:net';
import type { Server, ServerOptions } from 'socket.io';
import type { AppConfig } from '../config/app-config';
import { JSON_BODY_LIMIT_BYTES } from '../http/body-limit';

/** The Socket.IO server's options that come from config: CORS for the web client, message size. */
export function socketServerOptions(config: AppConfig): Partial<ServerOptions> {
  return {
    path: '/socket.io',
    cors: { origin: [...config.webOrigins], credentials: true },
    // A message may carry photos, as an HTTP body may; Socket.IO's default is 1 MB.
    maxHttpBufferSize: JSON_BODY_LIMIT_BYTES,
  };
}

/**
 * Nest's Socket.IO adapter with the api's server options. A subclass (the Redis adapter for
 * several processes) can build on `createIOServer`.
 */
export class SocketIoAdapter extends IoAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly serverOptions: Partial<ServerOptions>,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: Partial<ServerOptions>): Server {
    const server = super.createIOServer(port, { ...options, ...this.serverOptions }) as Server;
    writeOncePerTick(server.engine as unknown as EngineServer);
    return server;
  }
}

/** The parts of Engine.IO this file uses: a new connection's socket, its `flush` and its transport. */
interface EngineServer {
  on(event: 'connection', listener: (socket: EngineSocket) => void): void;
}
interface EngineSocket {
  flush(): void;
  transport?: { socket?: { _socket?: Socket } };
}

/**
 * A turn sends a client a burst of events (each node, the HEAD move, the status, the next elicit),
 * each its own WebSocket frame. Engine.IO writes a packet the moment it is queued if the transport
 * is free, then holds the rest of the burst until that write's callback, so a burst took two or
 * more system calls, the largest cost of a turn in the profile. Here a socket's flush waits for
 * the end of the tick that queued the packets (process.nextTick: nothing waits longer than the tick
 * that sent it), and its frames are written under one cork of the TCP socket: the kernel gets the
 * whole burst in one writev. A WebSocket transport's `ws` keeps its TCP socket as `_socket`
 * (polling transports have none, and are only deferred).
 */
function writeOncePerTick(engine: EngineServer): void {
  engine.on('connection', (socket) => {
    const flushNow = socket.flush.bind(socket);
    let scheduled = false;
    socket.flush = () => {
      if (scheduled) return;
      scheduled = true;
      process.nextTick(() => {
        scheduled = false;
        const tcp = socket.transport?.socket?._socket;
        const cork = tcp !== undefined && !tcp.destroyed;
        if (cork) tcp.cork();
        try {
          flushNow();
        } finally {
          if (cork) tcp.uncork();
        }
      });
    };
  });
}
