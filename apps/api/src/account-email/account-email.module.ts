import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DatabaseModule } from '../database/database.module';
import { MailModule } from '../mail/mail.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { AccountEmailController } from './account-email.controller';
import { EmailTokensRepository } from './email-tokens.repository';
import { EmailVerification } from './email-verification';
import { PasswordReset } from './password-reset';

/** Forgot password, proving an email and changing it: the account's links that go by mail. */
@Module({
  imports: [DatabaseModule, AuthModule, MailModule, RateLimitModule],
  controllers: [AccountEmailController],
  providers: [EmailTokensRepository, EmailVerification, PasswordReset],
})
export class AccountEmailModule {}
