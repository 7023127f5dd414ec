import type { INestApplicationContext } from '@nestjs/common';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Server, ServerOptions } from 'socket.io';
import { SocketIoAdapter } from '../realtime/socket-io.adapter';
import { ClusterRedis } from './cluster-redis';

/**
 * The api's Socket.IO adapter over Redis pub/sub (@socket.io/redis-adapter on ioredis): an event
 * emitted to a conversation's room on one api process reaches its sockets on every process.
 * Without REDIS_URL it is the plain in-memory adapter. Install in place of SocketIoAdapter:
 * `app.useWebSocketAdapter(new RedisIoAdapter(app, socketServerOptions(config)))`.
 */
export class RedisIoAdapter extends SocketIoAdapter {
  constructor(
    private readonly context: INestApplicationContext,
    serverOptions: Partial<ServerOptions>,
  ) {
    super(context, serverOptions);
  }

  override createIOServer(port: number, options?: Partial<ServerOptions>): Server {
    const server = super.createIOServer(port, options);
    const cluster = this.context.get(ClusterRedis);
    if (cluster.client) {
      server.adapter(
        createAdapter(cluster.duplicate(), cluster.duplicate(), { key: cluster.key('socket.io') }),
      );
    }
    return server;
  }
}
