import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoLogger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Server } from 'node:http';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { AppModule } from './app.module';
import { RedisIoAdapter } from './realtime/redis-io-adapter';
import type { AppConfig } from './config/app-config';
import { JSON_BODY_LIMIT_BYTES } from './http/body-limit';
import { McpEndpoint } from './mcp/mcp-endpoint';
import { securityHeaders } from './http/security-headers';
import { QueueDashboard } from './observability/queue-dashboard';
import { serveApiDocs } from './openapi/serve-api-docs';
import { socketServerOptions } from './realtime/socket-io.adapter';
import { serveWebClient } from './web-client/serve-web-client';

/** How long the server keeps an idle HTTP connection open. */
const KEEP_ALIVE_MS = 65_000;

/**
 * The configured api, initialised but not listening: main.ts listens on PORT, tests on an
 * ephemeral port. Rejects (rather than exiting) when a dependency fails at start.
 */
export async function createApp(
  config: AppConfig,
  options: { logger?: LogLevel[] | false; logDestination?: DestinationStream } = {},
): Promise<NestExpressApplication> {
  // `logger: false` (the tests) quiets the request lines as well as Nest's own.
  const configured = options.logger === false ? { ...config, logLevel: 'silent' as const } : config;
  const modules = AppModule.forRoot(configured, {
    ...(options.logDestination ? { logDestination: options.logDestination } : {}),
  });
  const app = await NestFactory.create<NestExpressApplication>(modules, {
    bodyParser: false,
    abortOnError: false,
    // Lines written while starting wait for the JSON logger rather than going out in Nest's format.
    bufferLogs: options.logger === undefined,
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
  if (options.logger === undefined) app.useLogger(app.get(PinoLogger));
  app.disable('x-powered-by');
  app.use(securityHeaders());
  // The built client is same-origin; WEB_ORIGIN names the others (ng serve, a separate host).
  app.enableCors({ origin: [...config.webOrigins], credentials: true });
  app.setGlobalPrefix('api');
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT_BYTES });
  // With REDIS_URL, events reach the sockets of every api process; without, the plain adapter.
  app.useWebSocketAdapter(new RedisIoAdapter(app, socketServerOptions(config)));
  serveApiDocs(app);
  app.get(QueueDashboard).mount(app);
  app.get(McpEndpoint).mount(app);
  serveWebClient(app, config.webDist, new Logger('WebClient'));
  // An idle keep-alive connection outlives the client's and a load balancer's own idle timeout
  // (60 s is the common default), so the server never closes one just as a request is sent on it.
  const server = app.getHttpServer() as Server;
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  await app.init();
  return app;
}
