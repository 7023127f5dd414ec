import { Module } from '@nestjs/common';
import { ConciergeModule } from '../concierge/concierge.module';
import { DatabaseModule } from '../database/database.module';
import { ClusterRedisModule } from '../redis/cluster-redis.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { AccessTokensController } from './access-tokens.controller';
import { AccountController } from './account.controller';
import { AccountEvents } from './account-events';
import { AccountSessions } from './account-sessions';
import { AccountSessionsController } from './account-sessions.controller';
import { IdentityAdmins } from './identity-admins';
import { Passkeys } from './passkeys';
import { PasskeysController } from './passkeys.controller';
import { PasskeysRepository } from './passkeys.repository';
import { SessionEndings } from './session-endings';
import { SignInWays } from './sign-in-ways';
import { WebAuthnChallenges } from './webauthn-challenges';
import { PersonalAccessTokens } from './personal-access-tokens';
import { PersonalAccessTokensRepository } from './personal-access-tokens.repository';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { TokenGenerations } from './token-generations';
import { TokenRevocations } from './token-revocations';
import { TokenSigner } from './token-signer';
import { UsersRepository } from './users.repository';

/**
 * Accounts, tokens, passkeys, the sessions a person sees and the guard every route passes; exports
 * AuthService and TokenRevocations for the gateway, AccountEvents for the admins' audit.
 */
@Module({
  imports: [DatabaseModule, ConciergeModule, ClusterRedisModule],
  controllers: [
    AuthController,
    AccountController,
    AccessTokensController,
    PasskeysController,
    AccountSessionsController,
  ],
  providers: [
    AuthService,
    AuthGuard,
    TokenSigner,
    UsersRepository,
    TokenGenerations,
    TokenRevocations,
    RefreshTokensRepository,
    PersonalAccessTokens,
    PersonalAccessTokensRepository,
    SessionEndings,
    AccountEvents,
    AccountSessions,
    SignInWays,
    Passkeys,
    PasskeysRepository,
    WebAuthnChallenges,
    IdentityAdmins,
  ],
  exports: [
    AuthService,
    AuthGuard,
    TokenRevocations,
    TokenGenerations,
    UsersRepository,
    AccountEvents,
    SignInWays,
    IdentityAdmins,
    RefreshTokensRepository,
  ],
})
export class AuthModule {}
