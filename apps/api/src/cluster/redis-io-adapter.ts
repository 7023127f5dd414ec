import type { INestApplicationContext } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Server, ServerOptions } from 'socket.io';
import { ClusterRedis } from './cluster-redis';

/**
 * Socket.IO over Redis pub/sub (@socket.io/redis-adapter): an event emitted to a conversation's
 * room on one api process reaches its sockets on every process. Without REDIS_URL it is the plain
 * in-memory adapter. Install with `app.useWebSocketAdapter(new RedisIoAdapter(app))` before init.
 */
export class RedisIoAdapter extends IoAdapter {
  constructor(private readonly app: INestApplicationContext) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const server = super.createIOServer(port, options) as Server;
    const cluster = this.app.get(ClusterRedis);
    if (cluster.client) {
      server.adapter(
        createAdapter(cluster.duplicate(), cluster.duplicate(), { key: cluster.key('socket.io') }),
      );
    }
    return server;
  }
}
