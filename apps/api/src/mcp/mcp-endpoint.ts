import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { getRequestListener } from '@hono/node-server';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { AuthService } from '../auth/auth.service';
import type { AuthUser } from '../auth/auth-user';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ApiError, type ErrorBody } from '../errors/api-error';
import { RATE_LIMITER, type RateLimiter } from '../rate-limit/rate-limiter';
import { authInfoOf } from './mcp-callers';
import { McpSessions, type McpSession } from './mcp-sessions';

/** Where MCP is served (PROTOCOL.md, MCP: Streamable HTTP). */
export const MCP_PATH = '/mcp';

type Next = (error?: unknown) => void;

/** An Express request as the api has it: its JSON body parsed when it had one. */
type ParsedRequest = IncomingMessage & { body?: unknown; originalUrl?: string };

/**
 * `/mcp`: the MCP Streamable HTTP endpoint (POST, GET and DELETE), on every api process. Each
 * request must carry `Authorization: Bearer <token>` (a session or personal access token), checked
 * by AuthService.verifyToken as every other request is: without a valid one it is a 401 in
 * PROTOCOL.md's error shape before the SDK sees it, so nothing is written. A session is its
 * owner's: another person's session id is a 404, as an unknown one is. Requests count against the
 * caller's HTTP rate limit (RATE_LIMIT_HTTP_PER_MINUTE), as every other route's do (a 429
 * `rate_limited` with Retry-After beyond it). The rest is the SDK's.
 */
@Injectable()
export class McpEndpoint {
  private readonly logger = new Logger('Mcp');

  private readonly limit: number;

  constructor(
    private readonly auth: AuthService,
    private readonly sessions: McpSessions,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = config.rateLimit.httpPerMinute;
  }

  /** Mounted on the Express app before Nest's routes and the web client (createApp). */
  mount(app: NestExpressApplication): void {
    app.use(MCP_PATH, (req: ParsedRequest, res: ServerResponse, next: Next) => {
      const path = new URL(req.originalUrl ?? req.url ?? '/', 'http://localhost').pathname;
      if (path !== MCP_PATH) return next();
      this.serve(req, res).catch((error: unknown) => {
        this.logger.error(
          `MCP request failed: ${String(error)}`,
          error instanceof Error ? error.stack : undefined,
        );
        if (!res.headersSent) refuse(res, 500, { error: { code: 'internal', message: 'internal error' } });
        else res.end();
      });
    });
  }

  private async serve(req: ParsedRequest, res: ServerResponse): Promise<void> {
    const token = bearer(req);
    const user = token ? await this.auth.verifyToken(token) : null;
    // Counted as the HTTP guard counts: a signed-in caller as themselves, anyone else by address.
    const key = user ? `http:user:${user.id}` : `http:ip:${req.socket.remoteAddress ?? 'unknown'}`;
    const decision = await this.limiter.hit(key, this.limit);
    if (!decision.allowed) {
      res.setHeader('Retry-After', String(decision.retryAfterSeconds));
      const error = new ApiError(
        'rate_limited',
        `too many requests: try again in ${decision.retryAfterSeconds}s`,
      );
      return refuse(res, error.getStatus(), error.body);
    }
    if (!token || !user) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="sweatpants"');
      return refuse(res, 401, {
        error: {
          code: 'unauthenticated',
          message: 'send Authorization: Bearer <token> (a personal access token)',
        },
      });
    }
    const session = await this.sessionFor(req, user);
    if (!session) {
      return refuse(res, 404, {
        error: { code: 'not_found', message: 'no such MCP session: initialize a new one' },
      });
    }
    const context = {
      ...(req.body !== undefined ? { parsedBody: req.body } : {}),
      authInfo: authInfoOf(token, user),
    };
    // Node's request as a web standard Request and the SDK's Response written back as it comes
    // (an SSE stream event by event, cancelled when the client goes), as the SDK's own Node
    // transport does it; the body was read by the api's JSON parser and is handed over parsed.
    // Express took the mount path off `req.url`; the Request keeps the address the client asked
    // for (the SDK hands it to tools as `requestInfo.url`). Nothing after this reads `req.url`.
    req.url = req.originalUrl ?? req.url;
    const listener = getRequestListener((request) => session.transport.handleRequest(request, context), {
      overrideGlobalObjects: false,
    });
    await listener(req, res);
  }

  /**
   * The request's session: a new one for an `initialize` without a session id, the caller's own
   * for a session id (rebuilt here if another process opened it), null for anyone else's.
   */
  private async sessionFor(req: ParsedRequest, user: AuthUser): Promise<McpSession | null> {
    const header = req.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    if (id === undefined) {
      // Without a session only `initialize` is taken; the SDK's transport says what is wrong with
      // anything else, from a session that never starts.
      return this.sessions.open(user.id, isInitializeRequest(req.body) ? req.body : undefined);
    }
    const session = await this.sessions.find(id);
    return session && session.ownerId === user.id ? session : null;
  }
}

function bearer(req: ParsedRequest): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() || undefined : undefined;
}

function refuse(res: ServerResponse, status: number, body: ErrorBody): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body));
}
