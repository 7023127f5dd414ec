import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../errors/api-error';
import { ADMIN_ONLY, IS_PUBLIC, SESSION_ONLY, type AuthenticatedRequest } from './auth.decorators';
import { AuthService } from './auth.service';

/**
 * Every HTTP route needs `Authorization: Bearer <token>` unless marked @Public (PROTOCOL.md, Auth):
 * a missing or bad token is a 401 `unauthenticated`; an @AdminOnly route refuses non-admins with
 * a 403 `forbidden`, and so does a @SessionOnly route called with a personal access token. The
 * verified user is put on the request for @CurrentUser.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest & { headers: Headers }>();
    const token = bearerToken(request.headers.authorization);
    const user = token === null ? null : await this.auth.verifyToken(token);
    if (!user) {
      throw new ApiError(
        'unauthenticated',
        token === null ? 'sign in: send Authorization: Bearer <token>' : 'the token is invalid or expired',
      );
    }
    request.user = user;
    if (this.reflector.getAllAndOverride<boolean>(ADMIN_ONLY, targets) && user.role !== 'admin') {
      throw new ApiError('forbidden', 'only admins may do this');
    }
    if (this.reflector.getAllAndOverride<boolean>(SESSION_ONLY, targets) && user.via.kind === 'token') {
      throw new ApiError(
        'forbidden',
        'a personal access token may not do this (create tokens, delete the account): sign in with your password',
      );
    }
    return true;
  }
}

interface Headers {
  authorization?: string | undefined;
}

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] ?? null;
}
