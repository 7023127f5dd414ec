import { Injectable } from '@nestjs/common';
import {
  err,
  ok,
  VERIFY_EMAIL_LINK_HOURS,
  type ChangeEmailRequest,
  type LinkRefusal,
  type Result,
  type VerifiedEmail,
} from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { AuthService, type Session } from '../auth/auth.service';
import type { SignInContext } from '../auth/refresh-tokens.repository';
import { UsersRepository } from '../auth/users.repository';
import { OnAppEvent, type AppEventMap } from '../events/app-events';
import { Mailer } from '../mail/mailer';
import { EmailTokensRepository } from './email-tokens.repository';

const LINK_TTL_MS = VERIFY_EMAIL_LINK_HOURS * 60 * 60_000;

/**
 * Proving an email: a new account, and an account whose address changed, are mailed a link that
 * proves the address once, within VERIFY_EMAIL_LINK_HOURS. Until then the account works but is
 * marked, and ADMIN_EMAILS does not make it an admin.
 */
@Injectable()
export class EmailVerification {
  constructor(
    private readonly tokens: EmailTokensRepository,
    private readonly users: UsersRepository,
    private readonly auth: AuthService,
    private readonly mailer: Mailer,
  ) {}

  @OnAppEvent('account.registered')
  async onRegistered({ userId }: AppEventMap['account.registered']): Promise<void> {
    await this.mailLink(userId, 'welcome');
  }

  /** Mails the account's current address a new link; `verified` when it is proven already. */
  async resend(user: AuthUser): Promise<Result<void, 'verified'>> {
    const account = await this.users.byId(user.id);
    if (!account || account.emailVerified) return err('verified');
    await this.mailLink(user.id, 'again');
    return ok(undefined);
  }

  /** Proves the address the link was mailed to, while it is still the account's. */
  async verify(token: string): Promise<Result<VerifiedEmail, LinkRefusal>> {
    const spent = await this.tokens.spend(token, 'verify-email');
    if (!spent.ok) return err(spent.error);
    const proven = await this.users.markEmailVerified(spent.value.userId, spent.value.email);
    return proven ? ok({ email: spent.value.email }) : err('expired');
  }

  /**
   * A new address, the password confirming it: it is unproven until its link is opened, every
   * earlier session ends (their tokens name the old address), and the old address is told.
   */
  async changeEmail(
    user: AuthUser,
    request: ChangeEmailRequest,
    context: Omit<SignInContext, 'method'>,
  ): Promise<Result<Session, 'wrong_password' | 'email_taken' | 'same_email'>> {
    if (!(await this.auth.checkPassword(user.id, request.password))) return err('wrong_password');
    const before = await this.users.byId(user.id);
    if (!before) return err('wrong_password');
    const email = request.email.trim();
    if (email.toLowerCase() === before.email.toLowerCase()) return err('same_email');
    const changed = await this.users.changeEmail(user.id, email);
    if (!changed.ok) return err(changed.error);
    const account = changed.value;
    if (!account) return err('wrong_password');
    await this.auth.endSessions(account.id, account);
    await this.mailLink(account.id, 'changed');
    this.mailer.post({
      to: before.email,
      subject: 'Your Sweatpants email was changed',
      text: [
        `The email of your Sweatpants account is now ${account.email}; this address no longer signs in.`,
        '',
        'If you did not change it, tell your administrator at once.',
      ].join('\n'),
    });
    return ok(await this.auth.issue(account, { ...context, method: 'password' }));
  }

  private async mailLink(userId: string, occasion: 'welcome' | 'again' | 'changed'): Promise<void> {
    const issued = await this.tokens.issueById(userId, 'verify-email', LINK_TTL_MS);
    if (!issued) return;
    const link = this.mailer.link('/verify-email', { token: issued.token });
    const opening = {
      welcome: 'Welcome to Sweatpants. Please confirm this is your email address:',
      again: 'Here is a new link to confirm this is your email address:',
      changed: 'You changed the email of your Sweatpants account to this address. Please confirm it:',
    }[occasion];
    this.mailer.post({
      to: issued.email,
      subject: 'Confirm your email for Sweatpants',
      text: [
        opening,
        '',
        link,
        '',
        `The link works for ${VERIFY_EMAIL_LINK_HOURS} hours. If you did not make this account, ignore this mail.`,
      ].join('\n'),
    });
  }
}
