import { Injectable } from '@nestjs/common';
import { err, ok, PASSWORD_RESET_LINK_MINUTES, type LinkRefusal, type Result } from '@sweatpants/domain';
import * as argon2 from 'argon2';
import { AuthService, type Session } from '../auth/auth.service';
import type { SignInContext } from '../auth/refresh-tokens.repository';
import { UsersRepository } from '../auth/users.repository';
import { Mailer } from '../mail/mailer';
import { EmailTokensRepository } from './email-tokens.repository';

const LINK_TTL_MS = PASSWORD_RESET_LINK_MINUTES * 60_000;

/**
 * Forgot password: a link mailed to the account's address sets a new password once, within
 * PASSWORD_RESET_LINK_MINUTES, and ends every session the account had (a reset is what a person
 * does when someone else may have the old password).
 */
@Injectable()
export class PasswordReset {
  constructor(
    private readonly tokens: EmailTokensRepository,
    private readonly users: UsersRepository,
    private readonly auth: AuthService,
    private readonly mailer: Mailer,
  ) {}

  /**
   * Mails a link when an account has `email`. The caller learns nothing either way: the same
   * statement runs whether or not the address is known, and the mail goes out in the background.
   */
  async request(email: string): Promise<void> {
    const issued = await this.tokens.issueByEmail(email, 'reset-password', LINK_TTL_MS);
    if (!issued) return;
    // The page words itself for a first password when the link says so (`first`).
    const link = this.mailer.link('/reset-password', {
      token: issued.token,
      ...(issued.hasPassword ? {} : { first: '1' }),
    });
    const setIt = `Set it here, within ${PASSWORD_RESET_LINK_MINUTES} minutes: ${link}`;
    // An account an identity provider made may have no password yet: the same link sets its first.
    this.mailer.post(
      issued.hasPassword
        ? {
            to: issued.email,
            subject: 'Set a new password for Sweatpants',
            text: [
              'Someone (we hope you) asked to set a new password for your Sweatpants account.',
              '',
              setIt,
              '',
              'Setting it signs you out everywhere. If you did not ask, ignore this mail: your password stays as it is.',
            ].join('\n'),
          }
        : {
            to: issued.email,
            subject: 'Set a password for Sweatpants',
            text: [
              'Someone (we hope you) asked to set a password for your Sweatpants account. You sign in without one today;',
              'with one you can also sign in with your email address.',
              '',
              setIt,
              '',
              'Setting it signs you out everywhere. If you did not ask, ignore this mail: nothing changes.',
            ].join('\n'),
          },
    );
  }

  /**
   * Sets the new password with the link's token: every session and token of the account so far
   * ends, on every process, and the answer is a new session. The mailed address is proven by it
   * (when it is still the account's).
   */
  async confirm(
    token: string,
    password: string,
    context: Omit<SignInContext, 'method'>,
  ): Promise<Result<Session, LinkRefusal>> {
    // The slow hash first, so the token is spent and the password set close together.
    const passwordHash = await argon2.hash(password);
    const spent = await this.tokens.spend(token, 'reset-password');
    if (!spent.ok) return err(spent.error);
    if (spent.value.stillTheirs) await this.users.markEmailVerified(spent.value.userId, spent.value.email);
    const account = await this.users.revokeTokens(spent.value.userId, passwordHash);
    if (!account) return err('unknown');
    await this.auth.endSessions(account.id, account);
    // A sign-in like any other, in the admins' audit: the mailed link stood in for the password.
    return ok(await this.auth.signIn(account, { ...context, method: 'password reset' }));
  }
}
