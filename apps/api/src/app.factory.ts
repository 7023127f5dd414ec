import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { RedisIoAdapter } from './cluster/redis-io-adapter';
import type { AppConfig } from './config/app-config';
import { JSON_BODY_LIMIT_BYTES } from './http/body-limit';
import { securityHeaders } from './http/security-headers';
import { serveApiDocs } from './openapi/serve-api-docs';
import { socketServerOptions } from './realtime/socket-io.adapter';
import { serveWebClient } from './web-client/serve-web-client';

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
  app.use(securityHeaders());
  // The built client is same-origin; WEB_ORIGIN names the others (ng serve, a separate host).
  app.enableCors({ origin: [...config.webOrigins], credentials: true });
  app.setGlobalPrefix('api');
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT_BYTES });
  // With REDIS_URL, events reach the sockets of every api process; without, the plain adapter.
  app.useWebSocketAdapter(new RedisIoAdapter(app, socketServerOptions(config)));
  serveApiDocs(app);
  serveWebClient(app, config.webDist, new Logger('WebClient'));
  await app.init();
  return app;
}
