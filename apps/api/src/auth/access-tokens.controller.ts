import { Controller } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { ApiError } from '../errors/api-error';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import type { AuthUser } from './auth-user';
import { CurrentUser, SessionOnly } from './auth.decorators';
import { PersonalAccessTokens } from './personal-access-tokens';

const { createAccessToken, listAccessTokens, revokeAccessToken } = HTTP_CONTRACT;

/** PROTOCOL.md, Personal access tokens: the caller's own, for scripts and MCP clients. */
@Controller()
export class AccessTokensController {
  constructor(private readonly tokens: PersonalAccessTokens) {}

  /** `POST /api/auth/tokens {name}` → 201 `{id, name, token, createdAt}`; a session's caller only. */
  @SessionOnly()
  @Endpoint(createAccessToken)
  create(
    @CurrentUser() user: AuthUser,
    @Input() { body }: EndpointInput<typeof createAccessToken>,
  ): EndpointResult<typeof createAccessToken> {
    return this.tokens.create(user.id, body.name);
  }

  /** `GET /api/auth/tokens` → `{items}`: the caller's own, newest first. */
  @Endpoint(listAccessTokens)
  async list(@CurrentUser() user: AuthUser): EndpointResult<typeof listAccessTokens> {
    return { items: await this.tokens.list(user.id) };
  }

  /** `DELETE /api/auth/tokens/:id` → 204 once every api process refuses it; not the caller's: 404. */
  @Endpoint(revokeAccessToken)
  async revoke(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof revokeAccessToken>,
  ): EndpointResult<typeof revokeAccessToken> {
    if (!(await this.tokens.revoke(user.id, params.id))) {
      throw new ApiError('not_found', 'no such token');
    }
  }
}
