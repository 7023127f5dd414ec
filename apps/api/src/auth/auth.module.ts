import { Module } from '@nestjs/common';
import { ConciergeModule } from '../concierge/concierge.module';
import { DatabaseModule } from '../database/database.module';
import { ClusterRedisModule } from '../redis/cluster-redis.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { AccessTokensController } from './access-tokens.controller';
import { AccountController } from './account.controller';
import { IdentityAdmins } from './identity-admins';
import { PersonalAccessTokens } from './personal-access-tokens';
import { PersonalAccessTokensRepository } from './personal-access-tokens.repository';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { TokenGenerations } from './token-generations';
import { TokenRevocations } from './token-revocations';
import { TokenSigner } from './token-signer';
import { UsersRepository } from './users.repository';

/** Accounts, tokens and the guard every route passes; exports AuthService and TokenRevocations for the gateway. */
@Module({
  imports: [DatabaseModule, ConciergeModule, ClusterRedisModule],
  controllers: [AuthController, AccountController, AccessTokensController],
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
    IdentityAdmins,
  ],
  exports: [AuthService, AuthGuard, TokenRevocations, TokenGenerations, UsersRepository, IdentityAdmins],
})
export class AuthModule {}
