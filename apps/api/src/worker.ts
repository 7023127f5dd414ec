import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CompactionWorkerModule } from './compaction/compaction-worker.module';
import { loadConfig } from './config/app-config';

/**
 * `npm run worker` (Nx `api:worker`): a process that runs the BullMQ jobs (compaction) and nothing
 * else. Needs REDIS_URL: without Redis the api runs its jobs in-process and there is nothing for a
 * worker to take. On SIGTERM/SIGINT it stops taking jobs, lets the running ones finish, and exits.
 */
async function main(): Promise<void> {
  const logger = new Logger('Worker');
  const config = loadConfig(process.env);
  if (config.redisUrl === undefined) {
    logger.error('REDIS_URL unset: without Redis the api runs jobs in-process; a worker has nothing to do');
    process.exit(1);
  }
  const app = await NestFactory.createApplicationContext(CompactionWorkerModule.forRoot(config), {
    abortOnError: false,
  });
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.init();
  logger.log(`worker ${process.pid} ready`);
}

main().catch((error: unknown) => {
  new Logger('Worker').error(
    `the worker failed to start: ${error instanceof Error ? error.message : String(error)}`,
    error instanceof Error ? error.stack : undefined,
  );
  process.exit(1);
});
