// First: tracing patches pg, ioredis and express as they load, so it must start before them.
import './tracing/trace-api';
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app.factory';
import { describeDefaults, loadConfig, type AppConfig } from './config/app-config';
import { describeTracing } from './tracing/tracing-sdk';

const SHUTDOWN_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

async function main(): Promise<void> {
  const logger = new Logger('Main');
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    logger.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }

  // Opening the database (and migrating it) happens before Nest can listen for signals; one that
  // arrives then waits for the start to finish, so a migration is never cut off. Asking again
  // stops at once; a repeat within a second is the same request (Ctrl-C reaches both this process
  // and scripts/start.mjs, which forwards it).
  let stopRequestedAt: number | undefined;
  const stopDuringStart = (signal: NodeJS.Signals) => {
    if (stopRequestedAt !== undefined) {
      if (Date.now() - stopRequestedAt > 1_000) process.exit(1);
      return;
    }
    stopRequestedAt = Date.now();
    logger.log(`${signal} while starting: stopping once started (send it again to stop now)`);
  };
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, stopDuringStart);
  const app = await createApp(config);
  // After createApp: the JSON logger is in place, so the defaults in force are lines like the rest.
  for (const note of describeDefaults(config)) logger.log(note);
  logger.log(describeTracing());
  for (const signal of SHUTDOWN_SIGNALS) process.off(signal, stopDuringStart);
  if (stopRequestedAt !== undefined) {
    await app.close();
    process.exit(0);
  }

  // On SIGTERM/SIGINT: stop accepting, let requests finish, close the db and Redis, exit 0.
  // A second signal during that is ignored rather than cutting the shutdown short.
  app.enableShutdownHooks(SHUTDOWN_SIGNALS, { useProcessExit: true });
  await app.listen(config.port);
  logger.log(`api listening on ${(await app.getUrl()).replace('[::1]', 'localhost')}/api`);
}

main().catch((error: unknown) => {
  new Logger('Main').error(
    `the api failed to start: ${error instanceof Error ? error.message : String(error)}`,
    error instanceof Error ? error.stack : undefined,
  );
  process.exit(1);
});
