import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';

type QueryCallback = (error: Error | null, result?: { rows: unknown[]; rowCount: number }) => void;

/**
 * Just enough of the `pg` module for TypeORM's postgres driver to run migrations on an embedded
 * PGlite instance that the caller owns (so closing TypeORM does not close the database).
 */
export function pgliteAsPgDriver(db: PGlite): object {
  const run = async (text: string, params?: unknown[]) => {
    const result =
      params && params.length > 0
        ? await db.query(text, params)
        : ((await db.exec(text)).at(-1) ?? { rows: [], affectedRows: 0 });
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
  };
  // TypeORM listens for 'notice' and 'error' on a connection, so the client is an emitter too.
  const client = Object.assign(new EventEmitter(), {
    query(text: string, paramsOrCallback?: unknown[] | QueryCallback, maybeCallback?: QueryCallback) {
      const params = Array.isArray(paramsOrCallback) ? paramsOrCallback : undefined;
      const callback = typeof paramsOrCallback === 'function' ? paramsOrCallback : maybeCallback;
      const done = run(text, params);
      if (callback)
        done.then(
          (r) => callback(null, r),
          (e: unknown) => callback(e as Error),
        );
      return done;
    },
    // One embedded connection, never handed back to a pool: nothing to release.
    release: () => undefined,
  });
  class Pool extends EventEmitter {
    connect(callback: (error: Error | null, c: typeof client, release: () => void) => void): void {
      callback(null, client, () => undefined);
    }
    query = client.query.bind(client);
    end(callback?: (error: Error | null) => void): void {
      callback?.(null);
    }
  }
  return { Pool };
}
