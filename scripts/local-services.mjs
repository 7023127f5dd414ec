// What the scripts that start the api locally share (the browser runs, the cluster, a scenario
// with an api of its own): a free port, and a throwaway database on the local PostgreSQL.
import { createServer } from 'node:net';

import pg from 'pg';

/** The local PostgreSQL server the scripts make their databases on. */
export const PG_ADMIN_URL = process.env.E2E_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A free TCP port on 127.0.0.1 (the kernel's pick, released at once). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs `work` with a client of the server at `serverUrl`, closed afterwards. */
export async function onPostgres(serverUrl, work) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A new database named `<prefix>_<time>_<pid>` on the server at `serverUrl`: its name, its url,
 * and `drop()`, which removes it (closing whatever is still connected).
 */
export async function throwawayDatabase(prefix, serverUrl = PG_ADMIN_URL) {
  const name = `${prefix}_${Date.now().toString(36)}_${process.pid}`;
  await onPostgres(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => onPostgres(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}
