import type { IncomingMessage, ServerResponse } from 'node:http';
import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  LoginRequestSchema,
  RegisterRequestSchema,
  type AuthResponse,
  type LoginRequest,
  type RegisterRequest,
  type User,
} from '@sweatpants/domain';
import { ApiError } from '../errors/api-error';
import { ZodPipe } from '../validation/zod.pipe';
import type { AuthUser } from './auth-user';
import { CurrentUser, Public } from './auth.decorators';
import { AuthService, type Session } from './auth.service';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie';

/**
 * PROTOCOL.md, Auth, and the session's refresh and sign-out beyond it. Every sign-in also sets the
 * refresh cookie (see refresh-cookie.ts for why a cookie); the answer's body is PROTOCOL.md's.
 * These routes are public, so the rate limit counts them per address, as it does register and login.
 */
@Controller('auth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  /** `POST /api/auth/register` → 201 `{token, user}`; an email already registered is a 409. */
  @Public()
  @Post('register')
  async register(
    @Body(new ZodPipe(RegisterRequestSchema)) body: RegisterRequest,
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<AuthResponse> {
    const registered = await this.auth.register(body);
    if (!registered.ok) {
      throw new ApiError('conflict', 'an account with this email exists already', [
        { field: 'email', message: 'is registered already' },
      ]);
    }
    return handOut(req, res, registered.value);
  }

  /** `POST /api/auth/login` → 200 `{token, user}`; a wrong email or password is a 401. */
  @Public()
  @Post('login')
  @HttpCode(200)
  async login(
    @Body(new ZodPipe(LoginRequestSchema)) body: LoginRequest,
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<AuthResponse> {
    const session = await this.auth.login(body);
    if (!session) throw new ApiError('unauthenticated', 'wrong email or password');
    return handOut(req, res, session);
  }

  /** `GET /api/auth/me` → the caller. */
  @Get('me')
  me(@CurrentUser() user: AuthUser): User {
    return user;
  }

  /**
   * `POST /api/auth/refresh` → 200 `{token, user, expiresAt}` with the next refresh token in the
   * cookie. Public: the access token it replaces may have expired already; the cookie is the proof.
   */
  @Public()
  @Post('refresh')
  @HttpCode(200)
  async refresh(
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<AuthResponse> {
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
  @Post('sign-out')
  @HttpCode(204)
  async signOut(@Req() req: IncomingMessage, @Res({ passthrough: true }) res: ServerResponse): Promise<void> {
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
