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

/** The parts of Engine.IO's server this file uses: its `flush` event, a socket's transport. */
interface EngineServer {
  on(event: 'flush', listener: (socket: { transport?: { socket?: { _socket?: Socket } } }) => void): void;
}

/**
 * A turn sends a client a burst of events (each node, the HEAD move, the status, the next elicit),
 * and each Socket.IO packet is its own WebSocket frame: one system call apiece, the largest cost
 * of a turn in the profile. Corking the client's TCP socket from the first frame of a tick to the
 * end of that tick hands the kernel the whole burst in one write; nothing waits longer than the
 * tick that sent it. Engine.IO's `flush` event precedes every write to a transport; a WebSocket
 * transport's `ws` keeps its TCP socket as `_socket` (polling transports have none: skipped).
 */
function writeOncePerTick(engine: EngineServer): void {
  const corked = new WeakSet<Socket>();
  engine.on('flush', (socket) => {
    const tcp = socket.transport?.socket?._socket;
    if (!tcp || corked.has(tcp) || tcp.destroyed) return;
    corked.add(tcp);
    tcp.cork();
    process.nextTick(() => {
      corked.delete(tcp);
      tcp.uncork();
    });
  });
}
