import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';

import { freePort } from './cluster-handle';

/**
 * A redis-server of the suite's own on a free loopback port: the machine's Redis on 6379 is shared
 * with other engineers' tests, and scenario 4 restarts this one. Nothing persists (--save "",
 * --appendonly no), as a restart that loses everything is the worst case the product must survive.
 */
export class PrivateRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.up();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts the server on its port (again, after down()) and resolves once it answers PING. */
  async up(): Promise<void> {
    this.child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--maxmemory-policy',
        'noeviction',
        '--loglevel',
        'warning',
      ],
      { stdio: 'ignore' },
    );
    const client = new Redis(this.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      for (let attempt = 0; attempt < 100; attempt++) {
        try {
          if (client.status !== 'ready') await client.connect();
          await client.ping();
          return;
        } catch {
          client.disconnect();
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      throw new Error(`redis-server on ${this.port} did not answer`);
    } finally {
      client.disconnect();
    }
  }

  /** kill -9: every connection drops, every key is gone. */
  async down(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
