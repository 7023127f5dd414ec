import {
  createContext,
  createQueue,
  resource,
  spawn,
  type Api,
  type Operation,
  type Stream,
  type Subscription,
} from 'effection';
import { createApi } from 'effection/experimental';
import type * as z from 'zod';

/**
 * Protocols (seed 004): a method's declaration (args, progress, returns as zod schemas) apart from
 * its implementations, so agent code invokes a capability without knowing whether a browser, a
 * terminal or a test answers it. The implementation in force is resolved from the scope's context,
 * and every value crossing the boundary is checked against the declaration.
 */

/** One method's declaration: what it is called with, what it reports as it goes, what it returns. */
export interface MethodSpec {
  args: z.ZodType;
  progress: z.ZodType;
  returns: z.ZodType;
}
/** A protocol's declaration: its methods by name. */
export type ProtocolSpec = Record<string, MethodSpec>;

/** What a method is called with. */
export type ArgsOf<M extends MethodSpec> = z.infer<M['args']>;
/** What a method reports while it works. */
export type ProgressOf<M extends MethodSpec> = z.infer<M['progress']>;
/** What a method returns. */
export type ReturnsOf<M extends MethodSpec> = z.infer<M['returns']>;

/** One implementation of every method; `send` streams progress to the invoker. */
export type Implementation<S extends ProtocolSpec> = {
  [K in keyof S]: (
    args: ArgsOf<S[K]>,
    send: (progress: ProgressOf<S[K]>) => Operation<void>,
  ) => Operation<ReturnsOf<S[K]>>;
};

/**
 * How a call in the seed's form (`handle.invoke({ name, args })`) came back: the result, or the
 * implementation's refusal (a permission the browser denied), which is an answer, not an error.
 */
export type Invoked<T> = { action: 'accept'; content: T } | { action: 'denied'; reason: string };

/** The implementation in force, as `attach` hands it to a caller: each method streamed or called. */
export interface ProtocolHandle<S extends ProtocolSpec> {
  /** progress events as the implementation sends them, then the result */
  invoke<K extends keyof S & string>(name: K, args: ArgsOf<S[K]>): Stream<ProgressOf<S[K]>, ReturnsOf<S[K]>>;
  /**
   * The seed's form: the result as an elicit answers (`accept` with it, or `denied` when the
   * implementation refused with ProtocolDenied); progress is not seen.
   */
  invoke<K extends keyof S & string>(call: {
    name: K;
    args: ArgsOf<S[K]>;
  }): Operation<Invoked<ReturnsOf<S[K]>>>;
  /** the result, with progress handed to `onProgress` */
  call<K extends keyof S & string>(
    name: K,
    args: ArgsOf<S[K]>,
    onProgress?: (progress: ProgressOf<S[K]>) => void,
  ): Operation<ReturnsOf<S[K]>>;
}

/** A declared protocol (`createProtocol`): its spec, and the implementation in force per scope. */
export interface Protocol<S extends ProtocolSpec> {
  readonly name: string;
  readonly spec: S;
  /** Makes `implementation` the one in force for the current scope and its children. */
  implement(implementation: Implementation<S>): Operation<void>;
  /** Runs `op` with `implementation` in force, then restores the outer one. */
  with<T>(implementation: Implementation<S>, op: () => Operation<T>): Operation<T>;
  /** A handle on the implementation in force; fails when there is none. */
  attach(): Operation<ProtocolHandle<S>>;
}

/**
 * A protocol call that could not be made or does not fit its declaration: no implementation in the
 * scope, or args, progress or a result the schemas refuse. A bug on one side, named in the message.
 *
 * @example
 * yield* DropOffDirectory.attach(); // ProtocolError: drop-off-directory: no implementation in this scope
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}

/**
 * An implementation's refusal: the person (or their device) said no, as a browser denies a
 * location. A caller of the seed's `invoke({ name, args })` gets `{ action: 'denied' }`; any other
 * caller gets it thrown.
 *
 * @example
 * *getLocation() {
 *   if (!permitted) throw new ProtocolDenied('location permission denied');
 * }
 */
export class ProtocolDenied extends Error {
  override readonly name = 'ProtocolDenied';
}

/** How an implementation ended: its result, or what it threw. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Protocols declared without a name, counted so that each has a context of its own. */
let unnamed = 0;

/** One call of a protocol's method, as middleware around protocol calls sees it. */
export interface ProtocolInvocation {
  protocol: string;
  method: string;
  args: unknown;
  /** runs the implementation in force with `args` (checked against the declaration) */
  perform(args: unknown, onProgress: (progress: unknown) => void): Operation<unknown>;
}

/** A protocol call as ProtocolCalls' middleware receives it: the invocation and where progress goes. */
export interface ProtocolCallsApi {
  invoke(invocation: ProtocolInvocation, onProgress: (progress: unknown) => void): Operation<unknown>;
}

/**
 * Every protocol call as an effection Api, so middleware surrounds it as it surrounds the
 * primitives (seed 004), at `max` or `min`, for the scope it is installed in and below: it sees the
 * protocol, the method and the args, may change them or answer itself, and sees each progress
 * event on its way to the caller.
 *
 * @example
 * yield* ProtocolCalls.around({
 *   *invoke([call, onProgress], next) {
 *     const started = Date.now();
 *     const result = yield* next(call, (progress) => {
 *       console.log(`${call.protocol}.${call.method}`, progress);
 *       onProgress(progress);
 *     });
 *     console.log(`${call.protocol}.${call.method} took ${Date.now() - started} ms`);
 *     return result;
 *   },
 * });
 */
export const ProtocolCalls: Api<ProtocolCallsApi> = createApi<ProtocolCallsApi>('sweatpants.protocols', {
  *invoke(invocation, onProgress) {
    return yield* invocation.perform(invocation.args, onProgress);
  },
});

/**
 * Declares a protocol (seed 004): `name` scopes its context and names it in errors, and `spec`
 * gives each method's args, progress and returns as zod schemas, which every call is checked
 * against on both sides.
 *
 * @example
 * export const DropOffDirectory = createProtocol('drop-off-directory', {
 *   search: {
 *     args: z.object({ near: PointSchema, kind: KindSchema, limit: z.number().int().min(1).max(10) }),
 *     progress: z.object({ list: z.string(), checked: z.number().int(), total: z.number().int() }),
 *     returns: z.object({ directory: z.string(), places: z.array(PlaceSchema) }),
 *   },
 * });
 * yield* DropOffDirectory.implement(demoDirectory);
 * const found = yield* (yield* DropOffDirectory.attach()).call('search', { near, kind, limit: 3 });
 */
export function createProtocol<S extends ProtocolSpec>(spec: S): Protocol<S>;
export function createProtocol<S extends ProtocolSpec>(name: string, spec: S): Protocol<S>;
export function createProtocol<S extends ProtocolSpec>(named: string | S, given?: S): Protocol<S> {
  // The seed declares a protocol by its spec alone; it is named for its methods then (errors
  // name it), and counted, so that two such never share an implementation.
  const spec = (typeof named === 'string' ? given : named) as S;
  const name = typeof named === 'string' ? named : `${Object.keys(spec).join('+')}#${++unnamed}`;
  const Current = createContext<Implementation<S>>(`sweatpants.protocol.${name}`);

  const check = <T>(schema: z.ZodType, value: unknown, what: string): T => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const problems = parsed.error.issues
        .map((i) => `${i.path.join('.') || '(value)'}: ${i.message}`)
        .join('; ');
      throw new ProtocolError(`${name}: ${what} does not fit the declaration: ${problems}`);
    }
    return parsed.data as T;
  };

  /**
   * The implementation's own stream: progress as it sends it, then its result or what it threw,
   * each checked. What it throws ends the stream, so that the invoker's `yield*` throws it (a
   * `ProtocolDenied` a caller answers as `denied`) rather than the invoker's whole scope failing.
   */
  function stream<K extends keyof S & string>(
    impl: Implementation<S>,
    method: K,
    args: unknown,
  ): Stream<ProgressOf<S[K]>, Settled<ReturnsOf<S[K]>>> {
    const m = spec[method] as S[K];
    // A resource, so the implementation runs in the invoker's scope: halting the invoker halts it
    // (and its `finally` blocks withdraw whatever it showed).
    return resource<Subscription<ProgressOf<S[K]>, Settled<ReturnsOf<S[K]>>>>(function* (provide) {
      const queue = createQueue<ProgressOf<S[K]>, Settled<ReturnsOf<S[K]>>>();
      const valid = check<ArgsOf<S[K]>>(m.args, args, `${method} args`);
      yield* spawn(function* () {
        try {
          const returned = yield* impl[method](valid, function* (progress) {
            queue.add(check<ProgressOf<S[K]>>(m.progress, progress, `${method} progress`));
          });
          queue.close({ ok: true, value: check<ReturnsOf<S[K]>>(m.returns, returned, `${method} result`) });
        } catch (error) {
          queue.close({ ok: false, error });
        }
      });
      yield* provide(queue);
    });
  }

  function* perform<K extends keyof S & string>(
    impl: Implementation<S>,
    method: K,
    args: unknown,
    onProgress: (progress: unknown) => void,
  ): Operation<ReturnsOf<S[K]>> {
    const subscription = yield* stream(impl, method, args);
    for (let next = yield* subscription.next(); ; next = yield* subscription.next()) {
      if (!next.done) {
        onProgress(next.value);
        continue;
      }
      if (next.value.ok) return next.value.value;
      throw next.value.error;
    }
  }

  /**
   * A call through ProtocolCalls' middleware. The implementation's result was checked as it
   * returned; only a result some middleware put in its place is checked again.
   */
  function* call<K extends keyof S & string>(
    impl: Implementation<S>,
    method: K,
    args: ArgsOf<S[K]>,
    onProgress: (progress: ProgressOf<S[K]>) => void,
  ): Operation<ReturnsOf<S[K]>> {
    const m = spec[method] as S[K];
    let performed: { value: ReturnsOf<S[K]> } | undefined;
    const result = yield* ProtocolCalls.operations.invoke(
      {
        protocol: name,
        method,
        args,
        perform: function* (a, progress) {
          const value = yield* perform(impl, method, a, progress);
          performed = { value };
          return value;
        },
      },
      (progress) => onProgress(progress as ProgressOf<S[K]>),
    );
    if (performed && Object.is(result, performed.value)) return performed.value;
    return check<ReturnsOf<S[K]>>(m.returns, result, `${method} result`);
  }

  const protocol: Protocol<S> = {
    name,
    spec,
    *implement(implementation) {
      yield* Current.set(implementation);
    },
    with: (implementation, op) => Current.with(implementation, op),
    *attach() {
      const found = yield* Current.get();
      if (!found) throw new ProtocolError(`${name}: no implementation in this scope`);
      const impl: Implementation<S> = found;
      const streamed = <K extends keyof S & string>(method: K, args: ArgsOf<S[K]>) =>
        resource<Subscription<ProgressOf<S[K]>, ReturnsOf<S[K]>>>(function* (provide) {
          const queue = createQueue<ProgressOf<S[K]>, ReturnsOf<S[K]>>();
          yield* spawn(function* () {
            queue.close(yield* call(impl, method, args, (progress) => queue.add(progress)));
          });
          yield* provide(queue);
        });
      function* answered<K extends keyof S & string>(method: K, args: ArgsOf<S[K]>) {
        try {
          const content = yield* call(impl, method, args, () => undefined);
          return { action: 'accept', content } as Invoked<ReturnsOf<S[K]>>;
        } catch (error) {
          if (error instanceof ProtocolDenied) return { action: 'denied', reason: error.message } as const;
          throw error;
        }
      }
      const invoke = <K extends keyof S & string>(
        method: K | { name: K; args: ArgsOf<S[K]> },
        args?: ArgsOf<S[K]>,
      ) =>
        typeof method === 'string'
          ? streamed(method, args as ArgsOf<S[K]>)
          : answered(method.name, method.args);
      return {
        invoke: invoke as ProtocolHandle<S>['invoke'],
        call: (method, args, onProgress) => call(impl, method, args, onProgress ?? (() => undefined)),
      };
    },
  };
  return protocol;
}

/**
 * The seed's form: builds an implementation inside an operation (it may acquire resources), typed
 * by the protocol it is for.
 *
 * @example
 * const directory = yield* createImplementation(DropOffDirectory, function* () {
 *   yield* log('info', 'drop-off directory ready');
 *   return demoDirectory;
 * });
 * yield* DropOffDirectory.implement(directory);
 */
export function createImplementation<S extends ProtocolSpec>(
  _protocol: Protocol<S>,
  build: () => Operation<Implementation<S>>,
): Operation<Implementation<S>> {
  return build();
}
