import {
  applyDecorators,
  createParamDecorator,
  HttpCode,
  RequestMapping,
  RequestMethod,
  SetMetadata,
  type ExecutionContext,
} from '@nestjs/common';
import type { Empty, FieldProblem, HttpMethod, HttpRoute, JsonReply, Reply } from '@sweatpants/domain';
import type * as z from 'zod';
import { fieldProblems, invalidRequest } from '../validation/field-problems';

/**
 * The prefix app.factory.ts and worker.factory.ts give every route (`app.setGlobalPrefix('api')`).
 * The contract's paths are whole (`/api/...`); Nest's are below the prefix.
 */
const GLOBAL_PREFIX = '/api';

/** Where @Endpoint leaves its route for @Input() to find at request time. */
const ENDPOINT_ROUTE = 'sweatpants:endpoint-route';

const METHODS: Record<HttpMethod, RequestMethod> = {
  get: RequestMethod.GET,
  post: RequestMethod.POST,
  patch: RequestMethod.PATCH,
  delete: RequestMethod.DELETE,
};

/** Marks a handler parameter as a route's input, so @Endpoint can tell it from the others. */
declare const ROUTE: unique symbol;

/**
 * What a handler is given for its route: the path parameters, query and body, each parsed by the
 * contract's schema (so defaults are filled in and `limit=5` is the number 5). A route without a
 * query has `{}` for it, one without a body `undefined`.
 */
export interface EndpointInput<R extends HttpRoute> {
  readonly params: z.output<R['params']>;
  readonly query: R['query'] extends z.ZodObject ? z.output<R['query']> : Empty;
  readonly body: R['body'] extends z.ZodType ? z.output<R['body']> : undefined;
  /** Type only: an input typed for one route is not another's (see @Endpoint's check). */
  readonly [ROUTE]?: R;
}

/** What a handler answers for a reply: the JSON body's type, or nothing (an empty reply, or a file or text the handler writes itself through `@Res()`). */
export type EndpointReply<R extends Reply> = R extends JsonReply<infer S> ? z.output<S> : void;

/** A handler's return type for its route: `Promise<HeadMove>` for `HTTP_CONTRACT.rewind`. */
export type EndpointResult<R extends HttpRoute> = Promise<EndpointReply<R['reply']>>;

/** Every parameter of a handler typed as some route's input (never when it takes none). */
type InputParameters<F> = F extends (...args: infer A) => unknown
  ? { [K in keyof A]: typeof ROUTE extends keyof A[K] ? A[K] : never }[number]
  : never;

/**
 * `unknown` when the handler's input parameter (if any) is typed for this route; otherwise a type
 * no descriptor has, so the decorator does not apply and tsc names the handler.
 */
type InputFits<F, R extends HttpRoute> = [InputParameters<F>] extends [never]
  ? unknown
  : EndpointInput<R> extends InputParameters<F>
    ? unknown
    : { readonly 'its @Input() parameter is typed for another route': never };

type Handler<R extends HttpRoute> = (
  ...args: never[]
) => EndpointReply<R['reply']> | Promise<EndpointReply<R['reply']>>;

/** The route's path as Nest maps it under the global prefix: `/api/conversations/:id` → `/conversations/:id`. */
export function servedPath(path: string): string {
  if (path !== GLOBAL_PREFIX && !path.startsWith(`${GLOBAL_PREFIX}/`)) {
    throw new Error(`${path}: a route of the HTTP contract lies under ${GLOBAL_PREFIX}`);
  }
  return path.slice(GLOBAL_PREFIX.length) || '/';
}

/**
 * Serves a route of libs/domain's HTTP_CONTRACT: its method and path (the controller is
 * `@Controller()`, without a prefix of its own, so the contract's path is the only one), its
 * success status, and its schemas for the handler's `@Input()` parameter. The handler's return
 * type is checked against the reply (the JSON body's type; `void` for an empty reply, or for a file
 * or text the handler writes through `@Res()`), and an `@Input()` parameter typed for another
 * route does not compile. Guards, roles and the rate limit stay the controller's own decorators.
 *
 * @example
 * const { rewind } = HTTP_CONTRACT;
 *
 * @Controller()
 * export class ConversationsController {
 *   @Endpoint(rewind)
 *   async rewind(
 *     @CurrentUser() user: AuthUser,
 *     @Input() { params, body }: EndpointInput<typeof rewind>,
 *   ): EndpointResult<typeof rewind> {
 *     return this.commands.run(user, await this.access.owned(user, params.id), { kind: 'rewind', ...body });
 *   }
 * }
 */
export function Endpoint<R extends HttpRoute>(route: R) {
  const decorate = applyDecorators(
    RequestMapping({ path: servedPath(route.path), method: METHODS[route.method] }),
    HttpCode(route.status),
    SetMetadata(ENDPOINT_ROUTE, route),
  );
  return <F extends Handler<R>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<F> & InputFits<F, R>,
  ): void => {
    decorate(target, key, descriptor);
  };
}

/** What a request carries, as Express has read it. */
export interface RawInput {
  readonly params?: unknown;
  readonly query?: unknown;
  readonly body?: unknown;
}

/**
 * A body schema stricter than the contract's, for what only this process knows (the agents it
 * registered): it must parse to the contract's body type.
 */
export interface StricterInput<R extends HttpRoute> {
  readonly body?: z.ZodType<EndpointInput<R>['body']>;
}

/**
 * Parses a request's params, query and body with the route's schemas, all three before answering,
 * so one 400 `invalid_request` names every bad field (a query's or body's field by its own name,
 * as PROTOCOL.md's details do; a body that is not an object at all as `body`, a query as `query`).
 * A body whose every field may be left out may itself be left out, as the typed client allows.
 * `stricter.body`, when given, parses the body in the contract's place (in the same pass, so its
 * own problems are named beside the others).
 */
export function parseEndpointInput<R extends HttpRoute>(
  route: R,
  raw: RawInput,
  stricter: StricterInput<R> = {},
): EndpointInput<R> {
  const problems: FieldProblem[] = [];
  const parse = (schema: z.ZodType | undefined, value: unknown, whole: string): unknown => {
    if (schema === undefined) return undefined;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    problems.push(...fieldProblems(parsed.error, whole));
    return undefined;
  };
  const params = parse(route.params, raw.params ?? {}, 'params');
  const query = route.query === undefined ? {} : parse(route.query, raw.query ?? {}, 'query');
  const bodySchema = route.body === undefined ? undefined : (stricter.body ?? route.body);
  const body = parse(bodySchema, bodyOf(bodySchema, raw.body), 'body');
  if (problems.length > 0) throw invalidRequest(problems);
  // The three were parsed by the route's own schemas just above; only the brand is type-level.
  return { params, query, body } as EndpointInput<R>;
}

function bodyOf(schema: z.ZodType | undefined, body: unknown): unknown {
  return body === undefined && schema?.safeParse({}).success === true ? {} : body;
}

/**
 * The handler's input, parsed once by the schemas of the route its @Endpoint serves (see
 * parseEndpointInput); type the parameter `EndpointInput<typeof route>`.
 *
 * @example
 * @Endpoint(HTTP_CONTRACT.tree)
 * async tree(@Input() { params, query }: EndpointInput<typeof HTTP_CONTRACT.tree>) { … }
 */
export const Input = createParamDecorator((_data: unknown, ctx: ExecutionContext): unknown => {
  const route = Reflect.getMetadata(ENDPOINT_ROUTE, ctx.getHandler()) as HttpRoute | undefined;
  if (route === undefined) {
    throw new Error(`${ctx.getClass().name}.${ctx.getHandler().name}: @Input() needs @Endpoint(route)`);
  }
  return parseEndpointInput(route, ctx.switchToHttp().getRequest<RawInput>());
});
