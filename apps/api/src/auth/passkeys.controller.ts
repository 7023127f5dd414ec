import type { IncomingMessage, ServerResponse } from 'node:http';
import { Controller, Req, Res } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { ApiError } from '../errors/api-error';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import type { AuthUser } from './auth-user';
import { CurrentUser, Public, SessionOnly } from './auth.decorators';
import { handOut } from './auth.controller';
import { Passkeys } from './passkeys';
import { userAgentOf } from './refresh-tokens.repository';

const {
  passkeyRegistrationOptions,
  addPasskey,
  listPasskeys,
  removePasskey,
  passkeySignInOptions,
  passkeySignIn,
} = HTTP_CONTRACT;

/**
 * Passkeys: adding, listing and removing the caller's own (a session's caller only for the
 * changes, as for personal access tokens: a script's token must not add a way into the account),
 * and the public sign-in with one, which hands out a session as a password sign-in does.
 */
@Controller()
export class PasskeysController {
  constructor(private readonly passkeys: Passkeys) {}

  /** `POST /api/auth/passkeys/options` → the creation options, with a challenge kept for 5 minutes. */
  @SessionOnly()
  @Endpoint(passkeyRegistrationOptions)
  registrationOptions(@CurrentUser() user: AuthUser): EndpointResult<typeof passkeyRegistrationOptions> {
    return this.passkeys.registrationOptions(user);
  }

  /** `POST /api/auth/passkeys {name, credential}` → 201 the passkey; refused: 400 on `credential`, 409 when added already. */
  @SessionOnly()
  @Endpoint(addPasskey)
  async add(
    @CurrentUser() user: AuthUser,
    @Input() { body }: EndpointInput<typeof addPasskey>,
  ): EndpointResult<typeof addPasskey> {
    const added = await this.passkeys.add(user, body.name, body.credential);
    if (added.ok) return added.value;
    if (added.error === 'exists') throw new ApiError('conflict', 'this passkey is added already');
    throw new ApiError('invalid_request', added.error.message, [
      { field: 'credential', message: added.error.message },
    ]);
  }

  /** `GET /api/auth/passkeys` → `{items}`, newest first. */
  @Endpoint(listPasskeys)
  async list(@CurrentUser() user: AuthUser): EndpointResult<typeof listPasskeys> {
    return { items: await this.passkeys.list(user.id) };
  }

  /** `DELETE /api/auth/passkeys/:id` → 204; the last way to sign in: 409; not the caller's: 404. */
  @SessionOnly()
  @Endpoint(removePasskey)
  async remove(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof removePasskey>,
  ): EndpointResult<typeof removePasskey> {
    const removed = await this.passkeys.remove(user, params.id);
    if (removed.ok) return;
    if (removed.error === 'not_found') throw new ApiError('not_found', 'no such passkey');
    throw new ApiError(
      'conflict',
      'this passkey is your last way to sign in: add another passkey or set a password before removing it',
    );
  }

  /** `POST /api/auth/passkey-sign-in/options` → the request options, with a challenge kept for 5 minutes. */
  @Public()
  @Endpoint(passkeySignInOptions)
  signInOptions(): EndpointResult<typeof passkeySignInOptions> {
    return this.passkeys.signInOptions();
  }

  /** `POST /api/auth/passkey-sign-in {credential}` → 200 `{token, user}` and the refresh cookie; refused: 401. */
  @Public()
  @Endpoint(passkeySignIn)
  async signIn(
    @Input() { body }: EndpointInput<typeof passkeySignIn>,
    @Req() req: IncomingMessage,
    @Res({ passthrough: true }) res: ServerResponse,
  ): EndpointResult<typeof passkeySignIn> {
    const signedIn = await this.passkeys.signIn(body.credential, {
      userAgent: userAgentOf(req.headers['user-agent']),
    });
    if (!signedIn.ok) throw new ApiError('unauthenticated', signedIn.error.message);
    return handOut(req, res, signedIn.value);
  }
}
