import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { AuthUser } from '../auth/auth-user';

/**
 * Who sent an MCP request, as the SDK hands a request's `authInfo` to its handlers: the endpoint
 * makes one per request from the verified token and the tool handlers read the caller back from
 * it, typed, without a cast or a second check of the token.
 */
const callers = new WeakMap<AuthInfo, AuthUser>();

/** The `authInfo` the endpoint passes the SDK's transport for a request of `user`'s. */
export function authInfoOf(token: string, user: AuthUser): AuthInfo {
  const info: AuthInfo = { token, clientId: user.id, scopes: [] };
  callers.set(info, user);
  return info;
}

/** The caller of the request whose `authInfo` this is; undefined for one the endpoint did not make. */
export function callerOf(info: AuthInfo | undefined): AuthUser | undefined {
  return info ? callers.get(info) : undefined;
}
