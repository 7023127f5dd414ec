import * as z from 'zod';

/** Who may call a route: anyone, a signed-in user, or an admin (PROTOCOL.md, Auth and Admin). */
export type RouteAccess = 'public' | 'user' | 'admin';
export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** A success answer with a JSON body, checked by `schema`. */
export interface JsonReply<S extends z.ZodType = z.ZodType> {
  readonly kind: 'json';
  readonly schema: S;
}
/** A success answer without a body (204, or a 202 that says nothing). */
export interface EmptyReply {
  readonly kind: 'empty';
}
/** A success answer that is a file (a photo, a zip) rather than JSON. */
export interface BinaryReply {
  readonly kind: 'binary';
  /** the media types it may have, for the OpenAPI document */
  readonly mediaTypes: readonly string[];
}
/** A success answer in plain text (Prometheus metrics). */
export interface TextReply {
  readonly kind: 'text';
  readonly mediaType: string;
}
export type Reply = JsonReply | EmptyReply | BinaryReply | TextReply;

export const json = <S extends z.ZodType>(schema: S): JsonReply<S> => ({ kind: 'json', schema });
export const empty: EmptyReply = { kind: 'empty' };
export const binary = (...mediaTypes: string[]): BinaryReply => ({ kind: 'binary', mediaTypes });
export const text = (mediaType: string): TextReply => ({ kind: 'text', mediaType });

/** `{id: string, nodeId: string}` from `/api/conversations/:id/nodes/:nodeId`. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>;

/**
 * One route of the HTTP api, declared once: the api's OpenAPI document, the spec that holds the
 * controllers to it, and every client are derived from these.
 */
export interface HttpRoute<
  P extends string = string,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends Reply = Reply,
> {
  readonly method: HttpMethod;
  /** Express style, `:id` for a path parameter */
  readonly path: P;
  /** the OpenAPI tag it is listed under */
  readonly tag: string;
  readonly summary: string;
  /** what a caller must know beyond the summary (the operation's description) */
  readonly description?: string;
  readonly access: RouteAccess;
  /** the path parameters, each a non-empty string (the handler says which ids exist) */
  readonly params: z.ZodType<PathParams<P>>;
  readonly query: Q;
  readonly body: B;
  /** the success status */
  readonly status: number;
  readonly reply: R;
  /** what the success answer holds, in words (the OpenAPI response's description) */
  readonly answers: string;
}

/** The parameter names of an Express-style path, in order. */
export const paramNames = (path: string): string[] =>
  [...path.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');

/**
 * Declares a route; its path parameters' schema is derived from the path, so a parameter cannot
 * be named in one place and forgotten in the other.
 */
export function route<
  const P extends string,
  R extends Reply,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: {
  method: HttpMethod;
  path: P;
  tag: string;
  summary: string;
  description?: string;
  access: RouteAccess;
  query?: Q;
  body?: B;
  status: number;
  reply: R;
  answers: string;
}): HttpRoute<P, Q, B, R> {
  const params = z.object(
    Object.fromEntries(paramNames(spec.path).map((name) => [name, z.string().min(1)])),
  ) as z.ZodType as z.ZodType<PathParams<P>>;
  return { ...spec, params, query: spec.query as Q, body: spec.body as B };
}
