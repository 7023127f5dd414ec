import type { Redis } from 'ioredis';

/**
 * QUIT when connected (what was sent is answered first); a connection that is not would queue the
 * QUIT until Redis returns, so it is dropped instead and shutdown never waits on Redis.
 */
export async function closeRedis(connection: Redis | undefined): Promise<void> {
  if (!connection || connection.status === 'end') return;
  if (connection.status !== 'ready') return connection.disconnect();
  await connection.quit().then(
    () => undefined,
    () => connection.disconnect(),
  );
}
