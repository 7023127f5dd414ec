import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import type { AppConfig } from './config/app-config';
import { serveWebClient } from './web-client/serve-web-client';

/**
 * Request bodies are JSON only. 25mb because a user message may carry a few phone photos as
 * base64 (a 3-5 MB JPEG grows by a third); anything larger is a 413 `too_large`.
 */
export const JSON_BODY_LIMIT = '25mb';

/**
 * The configured api, initialised but not listening: main.ts listens on PORT, tests on an
 * ephemeral port. Rejects (rather than exiting) when a dependency fails at start.
 */
export async function createApp(
  config: AppConfig,
  options: { logger?: LogLevel[] | false } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    abortOnError: false,
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
  app.disable('x-powered-by');
  app.setGlobalPrefix('api');
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT });
  serveWebClient(app, config.webDist, new Logger('WebClient'));
  await app.init();
  return app;
}
