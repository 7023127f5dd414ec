import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Inject, Req, Res } from '@nestjs/common';
import { HTTP_CONTRACT, type AuthResponse } from '@sweatpants/domain';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import {
  Endpoint,
  Input,
  type EndpointInput,
  type EndpointReply,
  type EndpointResult,
} from '../http/endpoint';
import type { AuthUser } from './auth-user';
import { CurrentUser, Public } from './auth.decorators';
import { AuthService, type Session } from './auth.service';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie';
import { userAgentOf } from './refresh-tokens.repository';

const { register, login, me, refresh, signOut } = HTTP_CONTRACT;

/**
 * PROTOCOL.md, Auth, and the session's refresh and sign-out beyond it. Every sign-in also sets the
 * refresh cookie (see refresh-cookie.ts for why a cookie); the answer's body is PROTOCOL.md's.
 * These routes are public, so the rate limit counts them per address, as it does register and login.
 */
@Controller()
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `POST /api/auth/register` → 201 `{token, user}`; an email already registered is a 409. */
  @Public()
  @Endpoint(register)
  async register(
    @Input() { body }: EndpointInput<typeof register>,
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof register> {
    this.passwordsAccepted();
    const registered = await this.auth.register(body, { userAgent: userAgentOf(req.headers['user-agent']) });
    if (!registered.ok) {
      throw new ApiError('conflict', 'an account with this email exists already', [
        { field: 'email', message: 'is registered already' },
      ]);
    }
    return handOut(req, res, registered.value);
  }

  /** `POST /api/auth/login` → 200 `{token, user}`; a wrong email or password is a 401. */
  @Public()
  @Endpoint(login)
  async login(
    @Input() { body }: EndpointInput<typeof login>,
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof login> {
    this.passwordsAccepted();
    const session = await this.auth.login(body, { userAgent: userAgentOf(req.headers['user-agent']) });
    if (!session) throw new ApiError('unauthenticated', 'wrong email or password');
    return handOut(req, res, session);
  }

  /** PASSWORD_SIGNIN=off: people sign in with the identity provider only, and register there. */
  private passwordsAccepted(): void {
    if (!this.config.passwordSignIn) {
      throw new ApiError(
        'forbidden',
        `password sign-in is turned off here: sign in with ${this.config.oidc?.name ?? 'your identity provider'}`,
      );
    }
  }

  /** `GET /api/auth/me` → the caller (PROTOCOL.md's user: how the token was verified stays here). */
  @Endpoint(me)
  me(@CurrentUser() user: AuthUser): EndpointReply<(typeof me)['reply']> {
    const { via: _via, ...caller } = user;
    return caller;
  }

  /**
   * `POST /api/auth/refresh` → 200 `{token, user, expiresAt}` with the next refresh token in the
   * cookie. Public: the access token it replaces may have expired already; the cookie is the proof.
   */
  @Public()
  @Endpoint(refresh)
  async refresh(
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof refresh> {
    const token = readRefreshCookie(req);
    if (token === null) throw new ApiError('unauthenticated', 'no session to carry on: sign in');
    const refreshed = await this.auth.refresh(token);
    // A refused cookie is left as it is, not cleared: this answer may arrive after the answer that
    // set a newer one (another tab changed the password meanwhile), and clearing would end that.
    if (!refreshed.ok) throw new ApiError('unauthenticated', 'the session has ended: sign in again');
    return handOut(req, res, refreshed.value);
  }

  /** `POST /api/auth/sign-out` → 204: the cookie's session ends and the cookie is cleared. */
  @Public()
  @Endpoint(signOut)
  async signOut(
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof signOut> {
    const token = readRefreshCookie(req);
    if (token !== null) await this.auth.signOut(token);
    clearRefreshCookie(req, res);
  }
}

/** The session's refresh token goes in the cookie; the body is the access token and the user. */
export function handOut(req: IncomingMessage, res: ServerResponse, session: Session): AuthResponse {
  setRefreshCookie(req, res, session.refresh);
  return session.auth;
}
