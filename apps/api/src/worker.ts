// First: tracing patches pg, ioredis and express as they load, so it must start before them.
import './tracing/trace-worker';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config';
import { describeTracing } from './tracing/tracing-sdk';
import { createWorker } from './worker.factory';

/**
 * `npm run worker` (Nx `api:worker`): a process that runs the BullMQ jobs (compaction, gc) and
 * serves only its metrics and liveness on WORKER_PORT. Needs REDIS_URL: without Redis the api runs
 * its jobs in-process and there is nothing for a worker to take. On SIGTERM/SIGINT it stops taking
 * jobs, lets the running ones finish, and exits.
 */
async function main(): Promise<void> {
  const logger = new Logger('Worker');
  const config = loadConfig(process.env);
  if (config.redisUrl === undefined) {
    logger.error('REDIS_URL unset: without Redis the api runs jobs in-process; a worker has nothing to do');
    process.exit(1);
  }
  const app = await createWorker(config);
  logger.log(describeTracing());
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen(config.workerPort);
  logger.log(`worker ${process.pid} ready; metrics and liveness on port ${config.workerPort} under /api`);
}

main().catch((error: unknown) => {
  new Logger('Worker').error(
    `the worker failed to start: ${error instanceof Error ? error.message : String(error)}`,
    error instanceof Error ? error.stack : undefined,
  );
  process.exit(1);
});
