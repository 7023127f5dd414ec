import {
  AccessTokenListSchema,
  CreateAccessTokenRequestSchema,
  CreatedAccessTokenSchema,
} from '../access-tokens';
import { empty, json, route } from './route';

/** PROTOCOL.md, Personal access tokens: for scripts and MCP clients. */
export const ACCESS_TOKEN_ROUTES = {
  createAccessToken: route({
    method: 'post',
    path: '/api/auth/tokens',
    tag: 'auth',
    summary: 'Create a personal access token',
    description:
      "A long-lived token for scripts and MCP clients, sent as `Authorization: Bearer <token>` (or as the socket's `auth: {token}`) wherever a session token is taken, except here and for deleting the account (403 `forbidden` when sent with one). The answer holds the token this once; only its hash is kept. `name` is trimmed, 1 to 100 characters. It works until it is revoked (a new password or signing out everywhere leaves it working) or the account is deleted.",
    access: 'user',
    body: CreateAccessTokenRequestSchema,
    status: 201,
    reply: json(CreatedAccessTokenSchema),
    answers: '{id, name, token, createdAt}',
  }),
  listAccessTokens: route({
    method: 'get',
    path: '/api/auth/tokens',
    tag: 'auth',
    summary: "The caller's personal access tokens",
    description:
      'Newest first, never the tokens themselves. `lastUsedAt` is when a request last came with the token, to within a minute.',
    access: 'user',
    status: 200,
    reply: json(AccessTokenListSchema),
    answers: '{items: [{id, name, createdAt, lastUsedAt}]}',
  }),
  revokeAccessToken: route({
    method: 'delete',
    path: '/api/auth/tokens/:id',
    tag: 'auth',
    summary: 'Revoke a personal access token',
    description:
      "The token is refused from the answer on, by every api process, and its sockets close. Another person's token, or one already revoked, is a 404.",
    access: 'user',
    status: 204,
    reply: empty,
    answers: '(empty)',
  }),
};
