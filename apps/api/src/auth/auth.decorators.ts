import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { AuthUser } from './auth-user';

export const IS_PUBLIC = 'sweatpants:public';
export const ADMIN_ONLY = 'sweatpants:admin-only';
export const SESSION_ONLY = 'sweatpants:session-only';

/** A route anyone may call without a token (health, register, login, the API docs). */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/** Routes for role `admin` only: everyone else gets a 403 `forbidden`. */
export const AdminOnly = (): MethodDecorator & ClassDecorator => SetMetadata(ADMIN_ONLY, true);

/**
 * Routes a personal access token may not call (PROTOCOL.md: making more tokens, deleting the
 * account): a token given to a script must not outlive its revocation by minting another, nor
 * take the account with it. Called with one, they answer 403 `forbidden`.
 */
export const SessionOnly = (): MethodDecorator & ClassDecorator => SetMetadata(SESSION_ONLY, true);

/** An HTTP request once the auth guard has let it through. */
export interface AuthenticatedRequest {
  user?: AuthUser;
}

/** The caller of an authenticated route, as the auth guard verified it. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthUser => {
  const user = ctx.switchToHttp().getRequest<AuthenticatedRequest>().user;
  // The guard runs before every non-public handler; a missing user is a route marked wrongly.
  if (!user) throw new Error('CurrentUser on a route the auth guard did not check');
  return user;
});
