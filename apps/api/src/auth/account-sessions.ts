import { Injectable } from '@nestjs/common';
import type { AccountSession } from '@sweatpants/domain';
import { AccountEvents } from './account-events';
import type { AuthUser } from './auth-user';
import { deviceName } from './device-name';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { TokenRevocations } from './token-revocations';

/**
 * The sessions a person can see (each a refresh-token family: one sign-in on one device) and end
 * one by one: a phone left somewhere, a computer that was shared. Ending one refuses its refresh
 * token and its access tokens and closes its sockets on every api process.
 */
@Injectable()
export class AccountSessions {
  constructor(
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly revocations: TokenRevocations,
    private readonly events: AccountEvents,
  ) {}

  /** The caller's live sessions, the most recently used first, theirs marked `current`. */
  async list(user: AuthUser): Promise<AccountSession[]> {
    const current = user.via.kind === 'session' ? user.via.sessionId : undefined;
    return (await this.refreshTokens.live(user.id)).map((session) => ({
      id: session.id,
      device: deviceName(session.userAgent),
      signedInWith: session.signedInWith,
      signedInAt: session.signedInAt.toISOString(),
      lastUsedAt: session.lastUsedAt.toISOString(),
      current: session.id === current,
    }));
  }

  /**
   * Ends the caller's session `id`, refused everywhere by the time this returns (see
   * TokenRevocations.revokedEverywhere), and notes it in the admins' audit. False when the caller
   * has no such live session.
   */
  async revoke(user: AuthUser, id: string): Promise<boolean> {
    const ended = await this.refreshTokens.revokeSession(user.id, id);
    if (!ended) return false;
    await this.revocations.revokedEverywhere(user.id, { sessionId: id });
    await this.events.record(user, 'session-revoked', deviceName(ended.userAgent));
    return true;
  }
}
