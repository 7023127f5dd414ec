import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
} from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import {
  err,
  ok,
  type AuthenticationResponseJSON,
  type Passkey,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  type Result,
} from '@sweatpants/domain';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AccountEvents } from './account-events';
import type { AuthUser } from './auth-user';
import { AuthService, type Session } from './auth.service';
import { PasskeysRepository } from './passkeys.repository';
import type { SignInContext } from './refresh-tokens.repository';
import { UsersRepository } from './users.repository';
import { CHALLENGE_TTL_MS, WebAuthnChallenges, type ChallengePurpose } from './webauthn-challenges';

/** What the browser shows as the site the passkey is for. */
const RP_NAME = 'Sweatpants';

/** Why a passkey ceremony was refused, for the answer's message (the log has the library's words). */
export type PasskeyRefusal = { reason: 'challenge' | 'unknown' | 'invalid'; message: string };

/**
 * Passkeys (WebAuthn, through SimpleWebAuthn): a signed-in person adds one, and later signs in
 * with it and no password. The relying party is PUBLIC_URL: its host is the RP id, it is the one
 * origin accepted. Passkeys are discoverable (the sign-in names no account: the passkey says whose
 * it is) and user verification is preferred, not required, so a security key without a PIN works.
 *
 * Each ceremony's challenge is taken from PostgreSQL before anything else is checked, so it is used
 * up whatever the outcome and cannot be answered twice, on this process or another.
 */
@Injectable()
export class Passkeys {
  private readonly logger = new Logger('Auth');
  private readonly origin: string;
  private readonly rpId: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly passkeys: PasskeysRepository,
    private readonly challenges: WebAuthnChallenges,
    private readonly users: UsersRepository,
    private readonly auth: AuthService,
    private readonly events: AccountEvents,
  ) {
    // PUBLIC_URL may name a path under the host; a passkey belongs to the origin, named by its host.
    this.origin = new URL(config.publicUrl).origin;
    this.rpId = new URL(config.publicUrl).hostname;
  }

  /** The options for adding a passkey to `user`'s account; its own passkeys are excluded. */
  async registrationOptions(user: AuthUser): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.passkeys.stored(user.id);
    const options = await generateRegistrationOptions({
      rpName: RP_NAME,
      rpID: this.rpId,
      // The account's id as the user handle: one authenticator keeps one passkey per account here.
      userID: isoUint8Array.fromUTF8String(user.id),
      userName: user.email,
      userDisplayName: user.displayName,
      attestationType: 'none',
      timeout: CHALLENGE_TTL_MS,
      excludeCredentials: existing.map((passkey) => ({
        id: passkey.credentialId,
        transports: passkey.transports as AuthenticatorTransport[],
      })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await this.challenges.issue(options.challenge, 'register', user.id);
    return options;
  }

  /**
   * Adds the passkey the browser made from `registrationOptions`, named `name`. Refused when its
   * challenge is not a live one of this account's, or it was made for another origin or relying
   * party, or it does not verify; `exists` when the credential is registered already.
   */
  async add(
    user: AuthUser,
    name: string,
    credential: RegistrationResponseJSON,
  ): Promise<Result<Passkey, PasskeyRefusal | 'exists'>> {
    const challenge = await this.takeChallenge(credential, 'register', user.id);
    if (!challenge.ok) return challenge;
    let verified;
    try {
      verified = await verifyRegistrationResponse({
        response: credential,
        expectedChallenge: challenge.value,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        requireUserVerification: false,
      });
    } catch (error) {
      return err(this.refused('invalid', 'adding a passkey', error));
    }
    if (!verified.verified) {
      return err({ reason: 'invalid', message: 'the passkey could not be verified' });
    }
    const made = verified.registrationInfo.credential;
    const added = await this.passkeys.add(user.id, {
      name,
      credentialId: made.id,
      publicKey: made.publicKey,
      counter: made.counter,
      transports: made.transports ?? credential.response.transports ?? [],
    });
    if (!added.ok) return err('exists');
    await this.events.record(user, 'passkey-added', name);
    return added;
  }

  async list(userId: string): Promise<Passkey[]> {
    return this.passkeys.list(userId);
  }

  /** Removes `user`'s passkey `id`, unless it is their last way to sign in. */
  async remove(user: AuthUser, id: string): Promise<Result<void, 'not_found' | 'last_way'>> {
    const removed = await this.passkeys.remove(user.id, id);
    if (!removed.ok) return removed;
    await this.events.record(user, 'passkey-removed', removed.value);
    return ok(undefined);
  }

  /** The options for signing in with any passkey of this site's. */
  async signInOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      userVerification: 'preferred',
      timeout: CHALLENGE_TTL_MS,
    });
    await this.challenges.issue(options.challenge, 'sign-in', null);
    return options;
  }

  /**
   * A session for the account whose passkey signed the sign-in challenge, as a password sign-in
   * gives one. Refused for an unknown passkey or challenge, another origin or relying party, a bad
   * signature, or a counter that went back (a cloned authenticator).
   */
  async signIn(
    credential: AuthenticationResponseJSON,
    context: Omit<SignInContext, 'method'>,
  ): Promise<Result<Session, PasskeyRefusal>> {
    const challenge = await this.takeChallenge(credential, 'sign-in', null);
    if (!challenge.ok) return challenge;
    const passkey = await this.passkeys.byCredentialId(credential.id);
    const account = passkey ? await this.users.byId(passkey.userId) : null;
    if (!passkey || !account) {
      return err({ reason: 'unknown', message: 'this passkey is not one of this site’s accounts' });
    }
    // The authenticator names the account it made the passkey for; it must be the passkey's owner.
    const handle = credential.response.userHandle;
    if (handle !== undefined && handle !== isoBase64URL.fromUTF8String(account.id)) {
      return err({ reason: 'invalid', message: 'the passkey does not belong to the account it names' });
    }
    let verified;
    try {
      verified = await verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: challenge.value,
        expectedOrigin: this.origin,
        expectedRPID: this.rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: passkey.publicKey,
          counter: passkey.counter,
          transports: passkey.transports as AuthenticatorTransport[],
        },
        requireUserVerification: false,
      });
    } catch (error) {
      return err(this.refused('invalid', 'a passkey sign-in', error));
    }
    if (!verified.verified) return err({ reason: 'invalid', message: 'the passkey’s signature is wrong' });
    await this.passkeys.used(passkey.id, verified.authenticationInfo.newCounter);
    return ok(await this.auth.signIn(account, { ...context, method: 'passkey' }));
  }

  /**
   * Reads the challenge the browser signed from its client data and takes it: from here on it
   * answers nothing else, whatever the rest of the ceremony comes to.
   */
  private async takeChallenge(
    credential: RegistrationResponseJSON | AuthenticationResponseJSON,
    purpose: ChallengePurpose,
    userId: string | null,
  ): Promise<Result<string, PasskeyRefusal>> {
    let challenge: unknown;
    try {
      challenge = (
        JSON.parse(isoBase64URL.toUTF8String(credential.response.clientDataJSON)) as {
          challenge?: unknown;
        }
      ).challenge;
    } catch {
      challenge = undefined;
    }
    if (typeof challenge !== 'string' || !(await this.challenges.take(challenge, purpose, userId))) {
      return err({
        reason: 'challenge',
        message:
          'this passkey answer is not for a live challenge (used already, expired, or never given): start again',
      });
    }
    return ok(challenge);
  }

  private refused(reason: PasskeyRefusal['reason'], what: string, error: unknown): PasskeyRefusal {
    const message = error instanceof Error ? error.message : String(error);
    this.logger.warn(`${what} was refused: ${message}`);
    return { reason, message: `the passkey was refused: ${message}` };
  }
}
