import { Module } from '@nestjs/common';
import { ConciergeModule } from '../concierge/concierge.module';
import { DatabaseModule } from '../database/database.module';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { TokenSigner } from './token-signer';
import { UsersRepository } from './users.repository';

/** Accounts, tokens and the guard every route passes; exports AuthService for the gateway. */
@Module({
  imports: [DatabaseModule, ConciergeModule],
  controllers: [AuthController],
  providers: [AuthService, AuthGuard, TokenSigner, UsersRepository],
  exports: [AuthService, AuthGuard],
})
export class AuthModule {}
