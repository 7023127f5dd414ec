import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Req, Res } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { AdminOnly } from '../auth/auth.decorators';
import { ApiError } from '../errors/api-error';
import { Endpoint, type EndpointReply } from '../http/endpoint';
import { QUEUE_DASHBOARD_COOKIE, QUEUE_DASHBOARD_PATH, QueueDashboard } from './queue-dashboard';

/** How long the dashboard's cookie lasts: a look at the queues, not a session of its own. */
const COOKIE_SECONDS = 15 * 60;

@AdminOnly()
@Controller()
export class QueueDashboardController {
  constructor(private readonly dashboard: QueueDashboard) {}

  /**
   * `POST /api/admin/queues/session` → 204 with the cookie that lets this browser open the
   * dashboard: the admin's own token (so revoking it closes the dashboard too), HttpOnly,
   * SameSite=Strict, sent only to the dashboard's path.
   */
  @Endpoint(HTTP_CONTRACT.openQueueDashboard)
  session(
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointReply<typeof HTTP_CONTRACT.openQueueDashboard.reply> {
    if (!this.dashboard.available) {
      throw new ApiError(
        'not_found',
        'the job queues run in-process (REDIS_URL unset): there is no queue dashboard',
      );
    }
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const secure = (req.socket as { encrypted?: boolean }).encrypted ? '; Secure' : '';
    res.setHeader(
      'Set-Cookie',
      `${QUEUE_DASHBOARD_COOKIE}=${encodeURIComponent(token)}; Path=${QUEUE_DASHBOARD_PATH}; ` +
        `Max-Age=${COOKIE_SECONDS}; HttpOnly; SameSite=Strict${secure}`,
    );
  }
}
