import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { err, ok, OIDC_CALLBACK_PATH, type OidcError, type Result } from '@sweatpants/domain';
import { APP_CONFIG, type AppConfig, type OidcConfig } from '../../config/app-config';
import { AuthService, type Session } from '../auth.service';
import { IdentityAdmins } from '../identity-admins';
import { UsersRepository, type Account } from '../users.repository';
import { IdentityLinksRepository } from './identity-links.repository';
import { oidc, type Configuration } from './openid-client';
import { PendingLoginsRepository } from './pending-logins.repository';
import { providerPerson, type ProviderPerson } from './provider-claims';

/** A sign-in begun: where to send the browser, and the secret its cookie must carry back. */
export interface Started {
  redirectTo: URL;
  browserSecret: string;
}

/** A sign-in finished: the session to hand out, and the path of the web client to land on. */
export interface Finished {
  session: Session;
  returnUrl: string | null;
}

/**
 * Sign-in with the OpenID Connect provider (OIDC_*), by openid-client: the authorization code
 * flow with PKCE, `state` and `nonce`. The pending sign-in is kept in Postgres (so the return may
 * reach any api process) and bound to the browser by a cookie; the account is the person's linked
 * one, else one made or linked by their verified email (`accountFor`).
 */
@Injectable()
export class OidcSignIn {
  private readonly logger = new Logger('OIDC');
  private readonly config: OidcConfig | null;
  private readonly callbackUrl: string;
  /** The provider's discovered metadata and keys; asked again after a failure. */
  private discovered: Promise<Configuration> | undefined;

  constructor(
    @Inject(APP_CONFIG) appConfig: AppConfig,
    private readonly auth: AuthService,
    private readonly users: UsersRepository,
    private readonly links: IdentityLinksRepository,
    private readonly pending: PendingLoginsRepository,
    private readonly identityAdmins: IdentityAdmins,
  ) {
    this.config = appConfig.oidc;
    this.callbackUrl = `${appConfig.publicUrl}${OIDC_CALLBACK_PATH}`;
    if (this.config) {
      this.logger.log(
        `sign-in with ${this.config.name} (${this.config.issuer}); the provider must allow the redirect URI ${this.callbackUrl}`,
      );
    }
  }

  get configured(): boolean {
    return this.config !== null;
  }

  /** The provider's authorization URL for a new pending sign-in, kept until it returns. */
  async start(returnUrl: string | null): Promise<Result<Started, OidcError>> {
    if (!this.config) return err('not_configured');
    const provider = await this.provider();
    if (!provider.ok) return provider;
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const login = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier, returnUrl };
    const browserSecret = randomBytes(32).toString('base64url');
    await this.pending.put(login, browserSecret);
    const redirectTo = oidc.buildAuthorizationUrl(provider.value, {
      redirect_uri: this.callbackUrl,
      scope: this.config.scopes,
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: login.state,
      nonce: login.nonce,
    });
    return ok({ redirectTo, browserSecret });
  }

  /**
   * The provider's return (`query`, the callback's query string): the pending sign-in its `state`
   * names is taken (once), the code traded with the PKCE verifier, the ID token's nonce checked,
   * and the person signed in to their account.
   */
  async finish(
    query: string,
    browserSecret: string | null,
    userAgent: string | null,
  ): Promise<Result<Finished, OidcError>> {
    if (!this.config) return err('not_configured');
    const params = new URLSearchParams(query);
    const state = params.get('state');
    const pending = state === null ? null : await this.pending.take(state, browserSecret);
    if (pending === null) return err('expired');
    if (params.has('error')) {
      this.logger.warn(
        `the provider refused a sign-in: ${params.get('error')} ${params.get('error_description') ?? ''}`,
      );
      return err('provider');
    }
    const provider = await this.provider();
    if (!provider.ok) return provider;
    let person: ProviderPerson;
    try {
      const tokens = await oidc.authorizationCodeGrant(
        provider.value,
        new URL(`${this.callbackUrl}?${query}`),
        {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        },
      );
      const idToken = tokens.claims();
      if (!idToken) return err('provider');
      const userInfo = await oidc.fetchUserInfo(provider.value, tokens.access_token, idToken.sub);
      person = providerPerson(idToken, userInfo, this.config.admin);
    } catch (error: unknown) {
      this.logger.warn(`a sign-in's answer from the provider did not hold: ${describe(error)}`);
      return err('provider');
    }
    const account = await this.accountFor(person);
    if (!account.ok) return account;
    this.identityAdmins.learned(account.value.id, person.admin);
    this.logger.log(
      `account ${account.value.id} signed in with ${this.config.name}${person.admin ? ' (an admin by its claim)' : ''}`,
    );
    const session = await this.auth.signIn(account.value, { userAgent, method: this.config.name });
    return ok({ session, returnUrl: pending.returnUrl });
  }

  /**
   * The person's account: the one linked to their issuer and subject; else, by the email the
   * provider vouches for, a new one, or an existing one whose own email is verified (linked now).
   * An existing account whose email nobody has proven is never linked: whoever registered it may
   * not own the address, and linking would hand them the provider's person, or the other way round.
   */
  private async accountFor(person: ProviderPerson): Promise<Result<Account, OidcError>> {
    const issuer = this.config?.issuer ?? '';
    const identity = { issuer, subject: person.subject };
    const linked = await this.links.signedIn(identity, person.admin);
    if (linked !== null) {
      const account = await this.users.byId(linked);
      return account ? ok(account) : err('failed');
    }
    if (person.email === null || !person.emailVerified) return err('unverified_email');
    const existing = await this.users.byEmail(person.email);
    if (existing) {
      if (!existing.emailVerified) return err('unverified_account');
      await this.links.link(identity, existing.id, person.admin);
      return ok(existing);
    }
    const created = await this.auth.registerVouched({ email: person.email, displayName: person.displayName });
    // Registered meanwhile (a second tab's sign-in, or a password sign-up): decide again on that.
    if (!created.ok) return this.accountFor(person);
    const owner = await this.links.link(identity, created.value.id, person.admin);
    const account = owner === created.value.id ? created.value : await this.users.byId(owner);
    return account ? ok(account) : err('failed');
  }

  private async provider(): Promise<Result<Configuration, OidcError>> {
    const config = this.config;
    if (!config) return err('not_configured');
    this.discovered ??= oidc.discovery(
      new URL(config.issuer),
      config.clientId,
      config.clientSecret,
      // Without a secret it is a public client: PKCE alone proves the code is its own.
      config.clientSecret === undefined ? oidc.None() : undefined,
      // Only a provider on plain http (a local one, a test's) needs it; https is never downgraded.
      new URL(config.issuer).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {},
    );
    try {
      return ok(await this.discovered);
    } catch (error: unknown) {
      this.discovered = undefined;
      this.logger.error(`the provider ${config.issuer} could not be reached: ${describe(error)}`);
      return err('failed');
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
