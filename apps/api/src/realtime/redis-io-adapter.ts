import type { INestApplicationContext } from '@nestjs/common';
import { createAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import type { Server, ServerOptions } from 'socket.io';
import { SocketIoAdapter } from './socket-io.adapter';
import { ClusterRedis } from '../redis/cluster-redis';

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
        createAdapter(handledCommands(cluster.duplicate()), handledCommands(cluster.duplicate()), {
          key: cluster.key('socket.io'),
        }),
      );
    }
    return server;
  }
}

/**
 * @socket.io/redis-adapter sends (P)SUBSCRIBE when it starts, (P)UNSUBSCRIBE when it closes and
 * PUBLISH for every broadcast without handling their promises. While Redis is not answering those
 * wait in ioredis' offline queue, and closing the connection rejects them ("Connection is
 * closed."): unhandled rejections that crash a process run with Node's defaults. Each command
 * sent on `connection` gets a handler here. A lost broadcast needs no report of its own: the
 * connection's 'error' listener has said Redis is away, and /api/health answers 503 meanwhile.
 */
function handledCommands(connection: Redis): Redis {
  const send = connection.sendCommand.bind(connection);
  connection.sendCommand = (command, stream) => {
    command.promise.catch(() => undefined);
    return send(command, stream);
  };
  return connection;
}
