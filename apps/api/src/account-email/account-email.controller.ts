import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import { HTTP_CONTRACT, LINK_REFUSALS, PASSWORD_RESET_ACCEPTED, type LinkRefusal } from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser, Public, SessionOnly } from '../auth/auth.decorators';
import { handOut } from '../auth/auth.controller';
import { userAgentOf } from '../auth/refresh-tokens.repository';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import { RATE_LIMITER, type RateLimiter } from '../rate-limit/rate-limiter';
import { EmailVerification } from './email-verification';
import {
  limitKey,
  RESENDS_PER_ACCOUNT,
  RESETS_PER_ADDRESS,
  RESETS_PER_EMAIL,
  withinLinkLimits,
} from './link-limits';
import { PasswordReset } from './password-reset';

const { requestPasswordReset, confirmPasswordReset, verifyEmail, resendEmailVerification, changeEmail } =
  HTTP_CONTRACT;

/** The request as Express has it: the client's address (behind the trusted proxy, its X-Forwarded-For). */
type ClientRequest = IncomingMessage & { ip?: string };

/**
 * What reaches a person by mail: a link to set a new password, a link to prove their email, and
 * a change of address (which is proven again). The routes beyond PROTOCOL.md's Auth.
 */
@Controller()
export class AccountEmailController {
  constructor(
    private readonly resets: PasswordReset,
    private readonly verification: EmailVerification,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** PASSWORD_SIGNIN=off: no password signs anyone in, so none is set by mail either. */
  private passwordsAccepted(): void {
    if (!this.config.passwordSignIn) {
      throw new ApiError(
        'forbidden',
        `password sign-in is turned off here: sign in with ${this.config.oidc?.name ?? 'your identity provider'}`,
      );
    }
  }

  /** `POST /api/auth/password-reset {email}` → 202, the same answer for any address. */
  @Public()
  @Endpoint(requestPasswordReset)
  async requestPasswordReset(
    @Input() { body }: EndpointInput<typeof requestPasswordReset>,
    @Req() req: ClientRequest,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof requestPasswordReset> {
    this.passwordsAccepted();
    await withinLinkLimits(
      this.limiter,
      [
        { key: limitKey('reset-email', body.email), limit: RESETS_PER_EMAIL },
        { key: limitKey('reset-ip', req.ip ?? 'unknown'), limit: RESETS_PER_ADDRESS },
      ],
      res,
    );
    await this.resets.request(body.email);
    return PASSWORD_RESET_ACCEPTED;
  }

  /** `POST /api/auth/password-reset/confirm {token, password}` → 200 a new session. */
  @Public()
  @Endpoint(confirmPasswordReset)
  async confirmPasswordReset(
    @Input() { body }: EndpointInput<typeof confirmPasswordReset>,
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof confirmPasswordReset> {
    this.passwordsAccepted();
    const reset = await this.resets.confirm(body.token, body.password, {
      userAgent: userAgentOf(req.headers['user-agent']),
    });
    if (!reset.ok) throw refusedLink(reset.error, 'set a new password');
    return handOut(req, res, reset.value);
  }

  /** `POST /api/auth/verify-email {token}` → 200 `{email}`: the address is proven. */
  @Public()
  @Endpoint(verifyEmail)
  async verifyEmail(
    @Input() { body }: EndpointInput<typeof verifyEmail>,
  ): EndpointResult<typeof verifyEmail> {
    const verified = await this.verification.verify(body.token);
    if (!verified.ok) throw refusedLink(verified.error, 'confirm your email');
    return verified.value;
  }

  /** `POST /api/auth/verify-email/resend` → 202: a new link to the caller's address. */
  @Endpoint(resendEmailVerification)
  async resendEmailVerification(
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof resendEmailVerification> {
    await withinLinkLimits(
      this.limiter,
      [{ key: limitKey('resend', user.id), limit: RESENDS_PER_ACCOUNT }],
      res,
    );
    const sent = await this.verification.resend(user);
    if (!sent.ok) throw new ApiError('conflict', 'your email is confirmed already');
  }

  /** `POST /api/account/email {email, password}` → 200 a new session; the address is proven again. */
  @SessionOnly()
  @Endpoint(changeEmail)
  async changeEmail(
    @CurrentUser() user: AuthUser,
    @Input() { body }: EndpointInput<typeof changeEmail>,
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof changeEmail> {
    const changed = await this.verification.changeEmail(user, body, {
      userAgent: userAgentOf(req.headers['user-agent']),
    });
    if (changed.ok) return handOut(req, res, changed.value);
    switch (changed.error) {
      case 'wrong_password':
        throw new ApiError('invalid_request', 'the password is not right', [
          { field: 'password', message: 'is not your password' },
        ]);
      case 'same_email':
        throw new ApiError('invalid_request', 'this is your email already', [
          { field: 'email', message: 'is your email already' },
        ]);
      case 'email_taken':
        throw new ApiError('conflict', 'an account with this email exists already', [
          { field: 'email', message: 'is registered already' },
        ]);
    }
  }
}

/** A mailed link that did not work, said so plainly, with the reason the client words its own way. */
function refusedLink(reason: LinkRefusal, what: string): ApiError {
  const message = {
    expired: `this link has expired: ask for a new one to ${what}`,
    used: `this link was used already: ask for a new one to ${what}`,
    unknown: `this link is not one we sent: ask for a new one to ${what}`,
  }[reason];
  return new ApiError('invalid_request', message, [{ field: 'token', message: LINK_REFUSALS[reason] }]);
}
