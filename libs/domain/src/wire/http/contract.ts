import type * as z from 'zod';
import { ACCESS_TOKEN_ROUTES } from './access-token-routes';
import { ACCOUNT_EMAIL_ROUTES } from './account-email-routes';
import { ACCOUNT_AND_ADMIN_ROUTES } from './account-admin-routes';
import { CONVERSATION_ROUTES } from './conversation-routes';
import { HEALTH_AND_AUTH_ROUTES } from './health-auth-routes';
import { SIGN_IN_ROUTES } from './sign-in-routes';
import { PASSKEY_AND_SESSION_ROUTES } from './passkey-session-routes';
import type { BinaryReply, HttpRoute, JsonReply, PathParams, Reply, TextReply } from './route';

/**
 * Every route of the HTTP api by name, in PROTOCOL.md's order (the routes beyond it after their
 * section's own). The OpenAPI document, the spec that holds the controllers to it and the typed
 * client are all derived from this object.
 *
 * @example
 * HTTP_CONTRACT.createConversation.path; // '/api/conversations'
 */
export const HTTP_CONTRACT = {
  ...HEALTH_AND_AUTH_ROUTES,
  ...SIGN_IN_ROUTES,
  ...ACCOUNT_EMAIL_ROUTES,
  ...ACCESS_TOKEN_ROUTES,
  ...PASSKEY_AND_SESSION_ROUTES,
  ...CONVERSATION_ROUTES,
  ...ACCOUNT_AND_ADMIN_ROUTES,
};
export type HttpContract = typeof HTTP_CONTRACT;
export type RouteName = keyof HttpContract;
export const ROUTE_NAMES = Object.keys(HTTP_CONTRACT) as RouteName[];

/** An object with no keys: what a route without params, query or body takes for them. */
export type Empty = Record<never, never>;
/** A schema whose input type is not known (a refined or custom one) is typed by its output. */
type Known<I, O> = unknown extends I ? O : I;

/** What a request sends as a route's body: the schema's input (defaults may be left out). */
export type BodyInput<B> = B extends z.ZodType ? Known<z.input<B>, z.output<B>> : never;

type OptionalKeys<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];
type RequiredKeys<T> = Exclude<keyof T, OptionalKeys<T>>;
/**
 * A route's query as a caller writes it: the parsed types (numbers are numbers), optional where
 * the server has a default or needs none.
 */
export type QueryInput<Q> = Q extends z.ZodObject
  ? Partial<Pick<z.output<Q>, OptionalKeys<z.input<Q>> & keyof z.output<Q>>> &
      Pick<z.output<Q>, RequiredKeys<z.input<Q>> & keyof z.output<Q>>
  : never;

type ParamsPart<R> =
  R extends HttpRoute<infer P>
    ? keyof PathParams<P> extends never
      ? Empty
      : { params: PathParams<P> }
    : never;
type QueryPart<R> = R extends { query: z.ZodObject } ? { query?: QueryInput<R['query']> } : Empty;
type BodyPart<R> = R extends { body: z.ZodType }
  ? Empty extends BodyInput<R['body']>
    ? { body?: BodyInput<R['body']> }
    : { body: BodyInput<R['body']> }
  : Empty;

/** What a call of a route takes: its path parameters, query and body, each where it has one. */
export type RouteInput<R> = ParamsPart<R> & QueryPart<R> & BodyPart<R>;

/** What a successful call of a route resolves to; `Binary` is what the transport gives for files. */
export type RouteOutput<R extends Reply, Binary> =
  R extends JsonReply<infer S>
    ? z.output<S>
    : R extends BinaryReply
      ? Binary
      : R extends TextReply
        ? string
        : void;
