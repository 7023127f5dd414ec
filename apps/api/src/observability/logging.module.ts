import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { AuthenticatedRequest } from '../auth/auth.decorators';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** A caller's own request id is kept when it is a plausible id, so a proxy's id follows the request. */
const CALLER_ID = /^[\w.:-]{1,100}$/;
/** The conversation a request is about, from its path (the owner's routes and the admin's). */
const CONVERSATION =
  /^\/api\/(?:admin\/)?conversations\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;
/** Probes and scrapes come every few seconds; a line each would drown the rest. */
const QUIET = /^\/api\/(health|metrics)(\/|\?|$)/;

/**
 * Structured JSON logs (pino, through nestjs-pino): one line per request with its id (echoed as
 * `x-request-id`), the signed-in user's id and the conversation's, its status and time; and
 * Nest's own `Logger` lines as JSON too, carrying the request's id when written while serving one.
 * Tokens and cookies are redacted; bodies (what people wrote) are never logged.
 */
@Module({})
export class LoggingModule {
  static forRoot(destination?: DestinationStream): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => {
            const options = {
              level: config.logLevel,
              genReqId: requestId,
              customProps: (req: IncomingMessage) => requestProps(req),
              autoLogging: { ignore: (req: IncomingMessage) => QUIET.test(req.url ?? '') },
              redact: {
                paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
                censor: '[redacted]',
              },
              serializers: {
                req: (req: { id: unknown; method: string; url: string }) => ({
                  id: req.id,
                  method: req.method,
                  url: req.url,
                }),
                // The status is what an operator reads; the headers are the same on every line.
                res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
              },
            };
            return {
              pinoHttp: destination ? [options, destination] : options,
              // Every route, in the path syntax of Nest 11's router: nestjs-pino's default ('*')
              // is the old syntax, which Nest converts with a warning at every start.
              forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
            };
          },
        }),
      ],
    };
  }
}

/** The caller's `x-request-id` when plausible, else a new one; echoed on the response either way. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && CALLER_ID.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', id);
  return id;
}

/** Who asked and about which conversation; read again when the response is logged (after auth). */
function requestProps(req: IncomingMessage): Record<string, string> {
  const props: Record<string, string> = {};
  const user = (req as IncomingMessage & AuthenticatedRequest).user;
  if (user) props['userId'] = user.id;
  // Express keeps the path as asked in originalUrl; url may be cut to a mount point's rest.
  const path = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const conversation = CONVERSATION.exec(path)?.[1];
  if (conversation) props['conversationId'] = conversation;
  return props;
}
