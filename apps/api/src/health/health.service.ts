import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Health } from '@sweatpants/domain';
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
