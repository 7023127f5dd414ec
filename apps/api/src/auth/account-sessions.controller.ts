import { Controller } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { ApiError } from '../errors/api-error';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import { AccountSessions } from './account-sessions';
import type { AuthUser } from './auth-user';
import { CurrentUser } from './auth.decorators';

const { listSessions, revokeSession } = HTTP_CONTRACT;

/** The caller's signed-in devices, each of which they may sign out from here. */
@Controller()
export class AccountSessionsController {
  constructor(private readonly sessions: AccountSessions) {}

  /** `GET /api/auth/sessions` → `{items}`: the live ones, the one the caller's token belongs to marked. */
  @Endpoint(listSessions)
  async list(@CurrentUser() user: AuthUser): EndpointResult<typeof listSessions> {
    return { items: await this.sessions.list(user) };
  }

  /** `DELETE /api/auth/sessions/:id` → 204 once every api process refuses it; not the caller's, or ended: 404. */
  @Endpoint(revokeSession)
  async revoke(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof revokeSession>,
  ): EndpointResult<typeof revokeSession> {
    if (!(await this.sessions.revoke(user, params.id))) {
      throw new ApiError('not_found', 'no such session: it is not yours, or it has ended already');
    }
  }
}
