import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ACCESS_TOKEN_PREFIX,
  err,
  ok,
  type AuthResponse,
  type LoginRequest,
  type RegisterRequest,
  type Result,
  type Role,
  type User,
} from '@sweatpants/domain';
import * as argon2 from 'argon2';
import { PgActivityStores } from '../concierge/pg-activity-store';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AccountEvents } from './account-events';
import { AppEvents } from '../events/app-events';
import type { AuthUser, AuthVia } from './auth-user';
import { deviceName } from './device-name';
import { IdentityAdmins } from './identity-admins';
import { PersonalAccessTokens } from './personal-access-tokens';
import {
  RefreshTokensRepository,
  type IssuedRefreshToken,
  type RefreshRefusal,
  type SignInContext,
} from './refresh-tokens.repository';
import { SessionEndings } from './session-endings';
import { TokenGenerations } from './token-generations';
import { TokenRevocations } from './token-revocations';
import { TokenSigner, type TokenSubject } from './token-signer';
import { UsersRepository, type Account } from './users.repository';

/** What a token or an account row says of its holder, from which the User is made. */
type UserFacts = Pick<TokenSubject, 'id' | 'email' | 'displayName' | 'emailVerified'>;

/**
 * A sign-in as it is handed out: the answer's short-lived access token, and the refresh token
 * that carries the session on (the controller puts it in the httpOnly cookie, never in the body).
 */
export interface Session {
  auth: AuthResponse;
  refresh: IssuedRefreshToken;
}

/**
 * Accounts and tokens: register, log in, refresh, and verify a bearer token (the HTTP guard, the
 * Socket.IO handshake and the other api processes all ask `verifyToken`).
 */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');
  private readonly admins: ReadonlySet<string>;
  /** Compared against when the email is unknown, so a miss costs what a wrong password does. */
  private decoyHash: Promise<string> | undefined;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: UsersRepository,
    private readonly tokens: TokenSigner,
    private readonly activities: PgActivityStores,
    private readonly generations: TokenGenerations,
    private readonly revocations: TokenRevocations,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly accessTokens: PersonalAccessTokens,
    private readonly identityAdmins: IdentityAdmins,
    private readonly sessionEndings: SessionEndings,
    private readonly accountEvents: AccountEvents,
    private readonly events: AppEvents,
  ) {
    this.admins = new Set(config.adminEmails);
  }

  /**
   * A new account and a token for it; `email_taken` when the email is registered already. The
   * account starts with the concierge's demo activities, so there is something to triage.
   */
  async register(
    request: RegisterRequest,
    context: Omit<SignInContext, 'method'>,
  ): Promise<Result<Session, 'email_taken'>> {
    const created = await this.users.create({
      email: request.email.trim(),
      displayName: request.displayName,
      passwordHash: await argon2.hash(request.password),
    });
    if (!created.ok) return err(created.error);
    await this.activities.seedDemo(created.value.id);
    // The address is unproven: the account-email module mails it a link.
    await this.events.emitAsync('account.registered', { userId: created.value.id });
    return ok(await this.issue(created.value, { ...context, method: 'password' }));
  }

  /**
   * A new account for a person an identity provider vouches for (auth/oidc): its email is proven
   * by the provider's word, it has no password until they set one (a password reset), so the
   * provider is its one way to sign in, and it starts as `register`'s do.
   */
  async registerVouched(input: {
    email: string;
    displayName: string;
  }): Promise<Result<Account, 'email_taken'>> {
    const created = await this.users.create({
      email: input.email.trim(),
      displayName: input.displayName,
      passwordHash: null,
      emailProven: true,
    });
    if (created.ok) await this.activities.seedDemo(created.value.id);
    return created;
  }

  /**
   * A token for the account, or null when the email or the password is wrong (which, not said),
   * or the account has no password. The sign-in is in the admins' audit.
   */
  async login(request: LoginRequest, context: Omit<SignInContext, 'method'>): Promise<Session | null> {
    const account = await this.users.byEmail(request.email.trim());
    const hash =
      account?.passwordHash ?? (await (this.decoyHash ??= argon2.hash('no one has this password')));
    const matches = await argon2.verify(hash, request.password).catch(() => false);
    if (!account?.passwordHash || !matches) return null;
    return this.signIn(account, { ...context, method: 'password' });
  }

  /**
   * A new session for an account whose holder proved it another way (a passkey, an identity
   * provider's word), as a password sign-in issues one; recorded in the admins' audit with how
   * and from which device.
   */
  async signIn(account: Account, context: SignInContext): Promise<Session> {
    const session = await this.issue(account, context);
    const how =
      context.method === 'password' || context.method === 'passkey' ? `a ${context.method}` : context.method;
    await this.accountEvents.record(account, 'signed-in', `with ${how} on ${deviceName(context.userAgent)}`);
    return session;
  }

  /**
   * Carries a session on: the refresh token is used up and the answer holds its successor and a
   * fresh access token. Refused when it is unknown, expired, revoked, of an earlier token
   * generation, or used before (which ends the session it belongs to: see RefreshTokensRepository).
   */
  async refresh(token: string): Promise<Result<Session, RefreshRefusal>> {
    const rotation = await this.refreshTokens.rotate(token);
    if (!rotation.ok) {
      if (rotation.reason === 'reused') {
        this.logger.warn(
          `a refresh token of account ${rotation.userId ?? '?'} was presented after its use: that session is ended`,
        );
      }
      return err(rotation.reason);
    }
    const subject = { ...rotation.subject, sessionId: rotation.next.sessionId };
    return ok({
      auth: { token: await this.tokens.sign(subject), user: await this.roleOf(subject) },
      refresh: rotation.next,
    });
  }

  /**
   * Sign-out here: the session the refresh token belongs to ends (it is a row), and with it the
   * access tokens given to it, on every process.
   */
  async signOut(refreshToken: string): Promise<void> {
    const ended = await this.refreshTokens.revokeFamilyOf(refreshToken);
    if (ended) await this.revocations.revokedEverywhere(ended.userId, { sessionId: ended.sessionId });
  }

  /**
   * Who a bearer token speaks for, or null when it is not a valid, unexpired token of this api, or
   * was signed before its account's tokens were revoked, or its account is gone. A personal access
   * token (it starts `spat_`) is taken as well, while it is not revoked and its account exists;
   * `via` says which kind of token it was.
   */
  async verifyToken(token: string): Promise<AuthUser | null> {
    if (token.startsWith(ACCESS_TOKEN_PREFIX)) return this.verifyAccessToken(token);
    const subject = await this.tokens.verify(token);
    if (!subject) return null;
    const current = await this.generations.current(subject.id);
    if (current === null || subject.tokenGeneration !== current) return null;
    if (subject.sessionId === undefined) return this.userOf(subject, { kind: 'session' });
    // A device signed out (here, or from the account page elsewhere) takes its access tokens along.
    if (await this.sessionEndings.ended(subject.sessionId)) return null;
    return this.userOf(subject, { kind: 'session', sessionId: subject.sessionId });
  }

  /** Whether `password` is the account's: for what must be confirmed (a new email). */
  async checkPassword(userId: string, password: string): Promise<boolean> {
    return this.passwordMatches(await this.users.byId(userId), password);
  }

  /** Whether `password` is that of `account`, already read (an account without one has none to match). */
  passwordMatches(account: Account | null, password: string): Promise<boolean> {
    return account?.passwordHash
      ? argon2.verify(account.passwordHash, password).catch(() => false)
      : Promise.resolve(false);
  }

  /**
   * Sign out everywhere: every token of the account so far stops working, its sessions end (the
   * new generation refuses their refresh tokens), its sockets close.
   */
  async revokeTokens(user: AuthUser): Promise<void> {
    const account = await this.users.revokeTokens(user.id);
    await this.endSessions(user.id, account);
  }

  /**
   * After the account moved to a new token generation (`account` as it now is; null when it is
   * gone): this process refuses the old tokens at once, every session's refresh token is
   * refused, and the other processes are told (their sockets close); resolves once they heard.
   */
  async endSessions(userId: string, account: Account | null): Promise<void> {
    this.generations.set(userId, account?.tokenGeneration ?? null);
    await this.refreshTokens.revokeAll(userId);
    await this.revocations.revokedEverywhere(userId);
  }

  /**
   * A new password, the current one confirming it: every earlier token stops working, and the
   * answer is a fresh token. `wrong_password` changes nothing.
   */
  async changePassword(
    user: AuthUser,
    request: { currentPassword: string; newPassword: string },
    context: Omit<SignInContext, 'method'>,
  ): Promise<Result<Session, 'wrong_password'>> {
    const account = await this.users.byId(user.id);
    const matches = account?.passwordHash
      ? await argon2.verify(account.passwordHash, request.currentPassword).catch(() => false)
      : false;
    if (!matches) return err('wrong_password');
    const changed = await this.users.revokeTokens(user.id, await argon2.hash(request.newPassword));
    if (!changed) return err('wrong_password');
    await this.endSessions(user.id, changed);
    return ok(await this.issue(changed, { ...context, method: 'password' }));
  }

  /** A new session for the account as it now is (not recorded as a sign-in: `signIn` is). */
  async issue(account: Account, context: SignInContext): Promise<Session> {
    const refresh = await this.refreshTokens.issue(account, context);
    const token = await this.tokens.sign({ ...account, sessionId: refresh.sessionId });
    return { auth: { token, user: await this.roleOf(account) }, refresh };
  }

  /**
   * A personal access token's holder. The token's row goes with its account, and the account's
   * generation is read as a session token's is, so a deleted account's tokens are refused as soon
   * as every process has heard (TokenRevocations), even while the token's row is still cached.
   */
  private async verifyAccessToken(token: string): Promise<AuthUser | null> {
    const presented = await this.accessTokens.verify(token);
    if (!presented || (await this.generations.current(presented.userId)) === null) return null;
    return this.userOf(
      {
        id: presented.userId,
        email: presented.email,
        displayName: presented.displayName,
        emailVerified: presented.emailVerified,
      },
      { kind: 'token', tokenId: presented.tokenId, name: presented.name },
    );
  }

  private async userOf(subject: UserFacts, via: AuthVia): Promise<AuthUser> {
    return { ...(await this.roleOf(subject)), via };
  }

  /**
   * PROTOCOL.md's user: the role is ADMIN_EMAILS' say for a proven address (anyone may register
   * with any address), or the identity provider's admin claim at the person's latest sign-in with
   * it (IdentityAdmins), at each use; never the token's.
   */
  private async roleOf(subject: UserFacts): Promise<User> {
    const admin =
      (subject.emailVerified && this.admins.has(subject.email.toLowerCase())) ||
      (await this.identityAdmins.has(subject.id));
    const role: Role = admin ? 'admin' : 'user';
    const { id, email, displayName, emailVerified } = subject;
    return { id, email, displayName, role, emailVerified };
  }
}
