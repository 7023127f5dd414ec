import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger as PinoLogger } from 'nestjs-pino';
import { WorkerModule } from './worker.module';
import type { AppConfig } from './config/app-config';

/**
 * The worker process, initialised but not listening: worker.ts listens on WORKER_PORT, tests on an
 * ephemeral port. `logger: false` (the tests) keeps it silent.
 */
export async function createWorker(
  config: AppConfig,
  options: { logger?: false } = {},
): Promise<NestExpressApplication> {
  const configured = options.logger === false ? { ...config, logLevel: 'silent' as const } : config;
  const app = await NestFactory.create<NestExpressApplication>(WorkerModule.forRoot(configured), {
    abortOnError: false,
    bufferLogs: options.logger === undefined,
    ...(options.logger === false ? { logger: false } : {}),
  });
  if (options.logger === undefined) app.useLogger(app.get(PinoLogger));
  app.disable('x-powered-by');
  app.setGlobalPrefix('api');
  await app.init();
  return app;
}
