import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { COMPACTION_QUEUE, type ErrorCode } from '@sweatpants/domain';
import { Queue } from 'bullmq';
import { AuthService } from '../auth/auth.service';
import { CLUSTER_CONFIG, type ClusterConfig } from '../config/cluster-config';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** Where the dashboard is served. */
export const QUEUE_DASHBOARD_PATH = '/api/admin/queues';
/** The cookie a browser carries into the dashboard (its pages cannot send a Bearer header). */
export const QUEUE_DASHBOARD_COOKIE = 'sp_queues';

type Next = (error?: unknown) => void;

/**
 * BullMQ's dashboard (bull-board) for admins at /api/admin/queues, when jobs run through Redis.
 * A browser navigates there and cannot send the Bearer header, so `POST
 * /api/admin/queues/session` (QueueDashboardController) puts the admin's token in an HttpOnly,
 * SameSite=Strict cookie scoped to this path; every request here must carry an admin's token, in
 * that cookie or the header, checked as every other request is (revoked tokens included). Without
 * Redis the queues are in-process and the path says so.
 */
@Injectable()
export class QueueDashboard implements OnApplicationShutdown {
  private queue: Queue | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLUSTER_CONFIG) private readonly cluster: ClusterConfig,
    private readonly auth: AuthService,
  ) {}

  get available(): boolean {
    return this.config.redisUrl !== undefined;
  }

  /** Mounted on the Express app before Nest's routes (createApp), so it answers its own path. */
  mount(app: NestExpressApplication): void {
    const url = this.config.redisUrl;
    if (url === undefined) {
      app.use(QUEUE_DASHBOARD_PATH, (req: IncomingMessage, res: ServerResponse, next: Next) => {
        if (req.method === 'POST') return next();
        refuse(
          res,
          404,
          'not_found',
          'the job queues run in-process (REDIS_URL unset): there is no queue dashboard',
        );
      });
      return;
    }
    const queue = new Queue(COMPACTION_QUEUE, {
      connection: { url, maxRetriesPerRequest: null },
      prefix: this.cluster.queuePrefix,
    });
    queue.on('error', (error: Error) => new Logger('QueueDashboard').warn(`Redis: ${error.message}`));
    this.queue = queue;
    const board = new ExpressAdapter();
    board.setBasePath(QUEUE_DASHBOARD_PATH);
    createBullBoard({
      queues: [new BullMQAdapter(queue)],
      serverAdapter: board,
      options: { uiConfig: { boardTitle: 'Sweatpants jobs' } },
    });
    app.use(QUEUE_DASHBOARD_PATH, (req: IncomingMessage, res: ServerResponse, next: Next) => {
      const token = bearer(req) ?? cookie(req, QUEUE_DASHBOARD_COOKIE);
      if (!token) return refuse(res, 401, 'unauthenticated', 'sign in as an admin first');
      this.auth.verifyToken(token).then(
        (user) => {
          if (!user) return refuse(res, 401, 'unauthenticated', 'sign in as an admin first');
          if (user.role !== 'admin') return refuse(res, 403, 'forbidden', 'the job queues are for admins');
          next();
        },
        (error: unknown) => next(error),
      );
    });
    app.use(
      QUEUE_DASHBOARD_PATH,
      board.getRouter() as (req: IncomingMessage, res: ServerResponse, next: Next) => void,
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close();
  }
}

function bearer(req: IncomingMessage): string | null {
  const header = req.headers.authorization ?? '';
  return header.startsWith('Bearer ') ? header.slice(7) : null;
}

function cookie(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

/** PROTOCOL.md's error shape, from outside Nest's exception filter. */
function refuse(res: ServerResponse, status: number, code: ErrorCode, message: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ error: { code, message } }));
}
