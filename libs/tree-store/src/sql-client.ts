import type { PGlite, Transaction } from '@electric-sql/pglite';
import { Pool } from 'pg';

/** Something that runs one parameterised statement and returns its rows. */
export interface SqlExecutor {
  query<R extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<R[]>;
}

/**
 * The store's one door to the database: PostgreSQL through a `pg` pool, or embedded PGlite.
 * Statements are plain parameterised SQL; nothing is ever interpolated into the text.
 */
export interface SqlClient extends SqlExecutor {
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws.
   * `snapshot` makes it a read-only transaction that sees one snapshot throughout (for audits).
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: { snapshot?: boolean }): Promise<T>;
  close(): Promise<void>;
}

/** A `pg` pool as a SqlClient. */
export class PgSqlClient implements SqlClient {
  constructor(private readonly pool: Pool) {
    // An idle connection the server drops (a restart, a terminated backend) must not crash the
    // process: the pool discards it and the next query opens a fresh one.
    pool.on('error', () => undefined);
  }

  /**
   * A pool on `url`. With `role`, every connection acts as that role from its first statement on
   * (a startup parameter, so no statement can run before it). JIT is off: the store's statements
   * are short, and PostgreSQL's cost estimate for a path read (a set-returning function joined to
   * range scans) crosses jit_above_cost, paying 30-40 ms of compilation to save microseconds.
   */
  static connect(url: string, options: { max?: number; role?: string } = {}): PgSqlClient {
    const { role, max = 10 } = options;
    if (role !== undefined && !/^[a-z_][a-z0-9_]*$/.test(role)) throw new Error(`not a role name: ${role}`);
    return new PgSqlClient(
      new Pool({
        connectionString: url,
        max,
        options: [role ? `-c role=${role}` : '', '-c jit=off'].join(' ').trim(),
      }),
    );
  }

  async query<R extends object>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    const result = await this.pool.query<R>(text, params as unknown[]);
    return result.rows;
  }

  async transaction<T>(
    work: (tx: SqlExecutor) => Promise<T>,
    options: { snapshot?: boolean } = {},
  ): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query(options.snapshot ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN');
      const tx: SqlExecutor = {
        query: async <R extends object>(text: string, params: readonly unknown[] = []) =>
          (await client.query<R>(text, params as unknown[])).rows,
      };
      const value = await work(tx);
      await client.query('COMMIT');
      client.release();
      return value;
    } catch (error) {
      await client.query('ROLLBACK').then(
        () => client.release(),
        (rollbackError: unknown) => client.release(rollbackError instanceof Error ? rollbackError : true),
      );
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * Embedded PGlite as a SqlClient. PGlite is a single connection: its own lock serialises
 * statements and transactions, so concurrent callers queue rather than interleave.
 */
export class PgliteSqlClient implements SqlClient {
  constructor(
    private readonly db: PGlite,
    private readonly options: { role?: string } = {},
  ) {}

  async query<R extends object>(text: string, params: readonly unknown[] = []): Promise<R[]> {
    if (!this.options.role) return (await this.db.query<R>(text, params as unknown[])).rows;
    return this.transaction((tx) => tx.query<R>(text, params));
  }

  // PGlite runs one transaction at a time, so every transaction already sees one snapshot.
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.db.transaction(async (t: Transaction) => {
      if (this.options.role) await t.exec(`SET LOCAL ROLE "${this.options.role.replace(/"/g, '""')}"`);
      return work({
        query: async <R extends object>(text: string, params: readonly unknown[] = []) =>
          (await t.query<R>(text, params as unknown[])).rows,
      });
    });
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
