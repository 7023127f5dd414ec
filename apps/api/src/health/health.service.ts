import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Health, Liveness, Readiness } from '@sweatpants/domain';
import { migrationNames } from '@sweatpants/migrations';
import type { SqlClient } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';
import { ApiError } from '../errors/api-error';
import { ModelChoice } from '../model/model-choice';
import { QueueConnection } from '../queue/queue-connection';

/** How long a dependency may take to answer before health calls it down. */
const CHECK_TIMEOUT_MS = 2_000;

@Injectable()
export class HealthService {
  private readonly logger = new Logger('Health');

  constructor(
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
    private readonly queue: QueueConnection,
    private readonly model: ModelChoice,
  ) {}

  /** PROTOCOL.md's health; a 503 `unavailable` naming what is down when the db or Redis is. */
  async check(): Promise<Health> {
    const [db, queue] = await Promise.all([
      probe(() => this.db.query('SELECT 1')),
      probe(() => this.queue.ping()),
    ]);
    if (db !== 'ok' || queue !== 'ok') {
      // Why stays in the log: the endpoint is public and a driver's message can name hosts.
      if (db !== 'ok') this.logger.warn(`health: database check failed: ${db}`);
      if (queue !== 'ok') this.logger.warn(`health: Redis check failed: ${queue}`);
      const down = [db !== 'ok' && 'database', queue !== 'ok' && 'Redis'].filter(Boolean).join(' and ');
      throw new ApiError('unavailable', `${down} unreachable`, {
        db: db === 'ok' ? 'ok' : 'down',
        queue: queue === 'ok' ? this.queueStatus() : 'down',
        model: this.model.kind,
      });
    }
    return { status: 'ok', db: 'ok', queue: this.queueStatus(), model: this.model.kind };
  }

  /** The process runs and its event loop turns: nothing else is asked, so a slow database never restarts it. */
  live(): Liveness {
    return { status: 'ok' };
  }

  /**
   * Whether this process can serve: its database answers and holds every migration this build
   * knows (a process started against an older schema, or during another's migration, is not
   * ready), and Redis answers when jobs run through it. Otherwise a 503 `unavailable` naming what
   * is not ready, so a load balancer or compose holds traffic back.
   */
  async ready(): Promise<Readiness> {
    let missing: string[] = [];
    const [db, queue] = await Promise.all([
      probe(async () => {
        const rows = await this.db.query<{ name: string }>('SELECT name FROM migrations');
        const applied = new Set(rows.map((r) => r.name));
        missing = migrationNames.filter((name) => !applied.has(name));
      }),
      probe(() => this.queue.ping()),
    ]);
    const problems = [
      db !== 'ok' && 'the database is unreachable',
      db === 'ok' && missing.length > 0 && `${missing.length} migration(s) not applied`,
      queue !== 'ok' && 'Redis is unreachable',
    ].filter((p): p is string => typeof p === 'string');
    if (problems.length > 0) {
      if (db !== 'ok') this.logger.warn(`ready: database check failed: ${db}`);
      if (missing.length > 0) this.logger.warn(`ready: migrations not applied: ${missing.join(', ')}`);
      if (queue !== 'ok') this.logger.warn(`ready: Redis check failed: ${queue}`);
      throw new ApiError('unavailable', `not ready: ${problems.join('; ')}`, {
        db: db === 'ok' ? 'ok' : 'down',
        migrations: db !== 'ok' ? 'unknown' : missing.length > 0 ? 'pending' : 'ok',
        queue: queue === 'ok' ? this.queueStatus() : 'down',
      });
    }
    return { status: 'ok', db: 'ok', migrations: 'ok', queue: this.queueStatus() };
  }

  private queueStatus(): Health['queue'] {
    return this.queue.mode === 'redis' ? 'ok' : 'in-process';
  }
}

/** 'ok', or why not: a failure or no answer within CHECK_TIMEOUT_MS. */
async function probe(check: () => Promise<unknown>): Promise<'ok' | string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      check().then(
        () => 'ok' as const,
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
