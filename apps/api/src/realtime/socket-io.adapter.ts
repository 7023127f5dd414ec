import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
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
    return super.createIOServer(port, { ...options, ...this.serverOptions }) as Server;
  }
}
