import { Injectable } from '@nestjs/common';
import { RECENT_SIGN_IN_MINUTES, type AccountDeletionInfo } from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { AuthService } from '../auth/auth.service';
import { RefreshTokensRepository } from '../auth/refresh-tokens.repository';
import { UsersRepository } from '../auth/users.repository';
import { ApiError } from '../errors/api-error';

const RECENT_MS = RECENT_SIGN_IN_MINUTES * 60_000;

/**
 * How a person confirms that they, and not someone holding their token, delete their account. The
 * password when the account has one. An account made through an identity provider, or signing in
 * with passkeys only, has none to give: signing in again confirms it, as a provider's or a
 * passkey's sign-in is the proof such an account has. So its session must have signed in within
 * the last RECENT_SIGN_IN_MINUTES; a token taken from an older session cannot delete it.
 */
@Injectable()
export class DeletionConfirmation {
  constructor(
    private readonly auth: AuthService,
    private readonly users: UsersRepository,
    private readonly sessions: RefreshTokensRepository,
  ) {}

  /** What the caller must give to delete their account, at `now`. */
  async how(user: AuthUser, now = new Date()): Promise<AccountDeletionInfo> {
    const account = await this.users.byId(user.id);
    if (!account) throw new ApiError('not_found', 'no such account');
    if (account.passwordHash) return { confirmWith: 'password', recentUntil: null };
    const until = await this.recentUntil(user, now);
    return { confirmWith: 'recent-sign-in', recentUntil: until?.toISOString() ?? null };
  }

  /** Throws the 400 the person reads unless `password` (or, without one, a recent sign-in) confirms it. */
  async confirm(user: AuthUser, password: string | undefined, now = new Date()): Promise<void> {
    const account = await this.users.byId(user.id);
    if (!account) throw new ApiError('not_found', 'no such account');
    if (account.passwordHash) {
      if (password === undefined)
        throw new ApiError('invalid_request', 'your password confirms it is you', [
          { field: 'password', message: 'is required' },
        ]);
      if (!(await this.auth.passwordMatches(account, password)))
        throw new ApiError('invalid_request', 'the password is not right', [
          { field: 'password', message: 'is not your password' },
        ]);
      return;
    }
    if (!(await this.recentUntil(user, now)))
      throw new ApiError(
        'invalid_request',
        `sign in again to confirm it is you: an account without a password is deleted within ${RECENT_SIGN_IN_MINUTES} minutes of signing in`,
        [{ field: 'signIn', message: `was more than ${RECENT_SIGN_IN_MINUTES} minutes ago` }],
      );
  }

  /** Until when the caller's session's sign-in counts as recent; null when it does not (or is no session). */
  private async recentUntil(user: AuthUser, now: Date): Promise<Date | null> {
    if (user.via.kind !== 'session' || user.via.sessionId === undefined) return null;
    const { sessionId } = user.via;
    const session = (await this.sessions.live(user.id)).find((s) => s.id === sessionId);
    if (!session) return null;
    const until = new Date(session.signedInAt.getTime() + RECENT_MS);
    return until > now ? until : null;
  }
}
