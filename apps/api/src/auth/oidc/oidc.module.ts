import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../database/database.module';
import { AuthModule } from '../auth.module';
import { IdentityLinksRepository } from './identity-links.repository';
import { OidcController } from './oidc.controller';
import { OidcSignIn } from './oidc-sign-in';
import { PendingLoginsRepository } from './pending-logins.repository';

/** Sign-in with an OpenID Connect provider, and the sign-in methods on offer. */
@Module({
  imports: [DatabaseModule, AuthModule],
  controllers: [OidcController],
  providers: [OidcSignIn, IdentityLinksRepository, PendingLoginsRepository],
})
export class OidcModule {}
