import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Req, Res } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { ApiError } from '../errors/api-error';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import type { AuthUser } from './auth-user';
import { CurrentUser } from './auth.decorators';
import { handOut } from './auth.controller';
import { AuthService } from './auth.service';
import { clearRefreshCookie } from './refresh-cookie';
import { userAgentOf } from './refresh-tokens.repository';

const { signOutEverywhere, changePassword } = HTTP_CONTRACT;

/**
 * The signed-in person's own account, beyond PROTOCOL.md's Auth: taking back every token they
 * were given (a lost phone, a shared computer), and a new password, which does the same.
 */
@Controller()
export class AccountController {
  constructor(private readonly auth: AuthService) {}

  /**
   * `POST /api/auth/sign-out-everywhere` → 204: this token and every other one stop working, and
   * every session's refresh token with them; this browser's cookie is cleared.
   */
  @Endpoint(signOutEverywhere)
  async signOutEverywhere(
    @CurrentUser() user: AuthUser,
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof signOutEverywhere> {
    await this.auth.revokeTokens(user);
    clearRefreshCookie(req, res);
  }

  /**
   * `POST /api/account/password {currentPassword, newPassword}` → 200 `{token, user}`. A wrong
   * current password is a 400 naming that field (the form shows it there), and changes nothing.
   */
  @Endpoint(changePassword)
  async changePassword(
    @CurrentUser() user: AuthUser,
    @Input() { body }: EndpointInput<typeof changePassword>,
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof changePassword> {
    const changed = await this.auth.changePassword(user, body, {
      userAgent: userAgentOf(req.headers['user-agent']),
    });
    if (!changed.ok) {
      throw new ApiError('invalid_request', 'the current password is not right', [
        { field: 'currentPassword', message: 'is not your current password' },
      ]);
    }
    // Every earlier session ended with the old password: this browser carries on in a new one.
    return handOut(req, res, changed.value);
  }
}
