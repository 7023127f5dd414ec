import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { startApi, type TestApi } from './test-api';

export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Two api processes on one database and Redis, for the describe block that asked for them. */
export interface ApiPair {
  readonly db: TestDatabase;
  readonly a: TestApi;
  readonly b: TestApi;
  /** Stops `a` (its lease lapses; `b` takes over what it drove); afterAll does not stop it again. */
  stopA(): Promise<void>;
}

/**
 * Two api processes on one fresh database and the shared Redis, as the hosted shape runs them,
 * started before the block's tests and stopped after them. The cluster settings come from the
 * process environment, as in a deployment: a Redis prefix of this run's own (so nothing else on
 * the shared Redis is seen), WORKER=off, and `env` (given to each api's configuration too); the
 * environment is restored afterwards.
 */
export function useApiPair(
  label: string,
  env: Record<string, string> = {},
  /** more of each api's configuration, read as they start (a fake server's address known only then) */
  appEnv: () => Record<string, string> = () => ({}),
): ApiPair {
  const saved = { ...process.env };
  let db: TestDatabase | undefined;
  let a: TestApi | undefined;
  let b: TestApi | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the api pair's ${what} is not running`);
    return value;
  };

  beforeAll(async () => {
    db = await createTestDatabase(label);
    Object.assign(process.env, {
      REDIS_PREFIX: `${label}-${randomBytes(4).toString('hex')}`,
      WORKER: 'off',
      ...env,
    });
    a = await startApi({ DATABASE_URL: db.url, REDIS_URL, GC_EVERY_MINUTES: 'off', ...env, ...appEnv() });
    b = await startApi({ DATABASE_URL: db.url, REDIS_URL, GC_EVERY_MINUTES: 'off', ...env, ...appEnv() });
  }, 30_000);

  afterAll(async () => {
    await b?.close();
    await a?.close();
    process.env = saved;
    await db?.drop();
  });

  return {
    get db() {
      return started(db, 'database');
    },
    get a() {
      return started(a, 'api a');
    },
    get b() {
      return started(b, 'api b');
    },
    async stopA() {
      const stopping = a;
      a = undefined;
      await stopping?.close();
    },
  };
}
