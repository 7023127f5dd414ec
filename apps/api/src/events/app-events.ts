import { Logger, SetMetadata } from '@nestjs/common';
import type { ServerEventName, ServerEventPayload } from '@sweatpants/domain';

/** A server → client event of one conversation, as a conversation's services say it. */
export type ConversationEvent = {
  [E in ServerEventName]: { event: E; payload: ServerEventPayload<E> };
}[ServerEventName];

/**
 * What the api's modules tell each other inside one process, by name → what it carries. A module
 * that says something emits it here; a module that cares marks a method `@OnAppEvent(name)`, and
 * the handlers are found when the application starts. No module holds a setter or a listener list
 * of another's: a reader sees who hears what by searching for the event's name (immich's
 * EventRepository is the model).
 */
export interface AppEventMap {
  /** a conversation's server → client event, for the transport that carries it to its clients */
  'conversation.event': ConversationEvent;
  /** a branch grew past its agent's budget: its compaction should be queued (fire and forget) */
  'compaction.requested': { conversationId: string; head: string; requestedBy?: string };
  /** another process took a conversation's lease: this one must stop driving it */
  'lease.lost': { conversationId: string };
  /** a person's tokens were revoked, here or on another process: their sockets must close */
  'token.revoked': { userId: string };
  /** one personal access token was revoked, here or on another process: it and its sockets are refused */
  'access-token.revoked': { userId: string; tokenId: string };
  /** one session (a signed-in device) ended, here or on another process: its tokens and sockets are refused */
  'session.revoked': { userId: string; sessionId: string };
  /** an account was made with a password: its address is unproven (it is mailed a link) */
  'account.registered': { userId: string };
}
export type AppEventName = keyof AppEventMap;

/** The metadata key `OnAppEvent` marks a handler with (read by AppEventHandlers at start). */
export const ON_APP_EVENT = 'sweatpants:on-app-event';

/**
 * Marks a provider's method as a handler of `name`; it is called with the event's payload, in
 * the order events are emitted. A handler that returns a promise is awaited by `emitAsync` only.
 *
 * @example
 * \@OnAppEvent('lease.lost')
 * onLeaseLost({ conversationId }: AppEventMap['lease.lost']): void { … }
 */
export const OnAppEvent = (name: AppEventName): MethodDecorator => SetMetadata(ON_APP_EVENT, name);

export type AppEventHandler<N extends AppEventName> = (payload: AppEventMap[N]) => void | Promise<void>;
type Handler<N extends AppEventName> = AppEventHandler<N>;

/**
 * The process's in-process event map: `emit` calls every handler of the event at once, in the
 * order they were added (AppEventHandlers adds the `@OnAppEvent` methods at start); a handler that
 * throws is logged and does not stop the others (nor the emitter, whose own work is done). A plain
 * class, so a test or a bench builds one with `new AppEvents()`.
 */
export class AppEvents {
  private readonly logger = new Logger('Events');
  private readonly handlers = new Map<AppEventName, Handler<AppEventName>[]>();

  /** Adds a handler by hand (a test, or a value that is not a provider); returns its removal. */
  on<N extends AppEventName>(name: N, handler: Handler<N>): () => void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler as Handler<AppEventName>);
    this.handlers.set(name, list);
    return () => {
      const at = list.indexOf(handler as Handler<AppEventName>);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /**
   * Makes `handler` the only one of `name`: for a bench or a test that stands in for the module
   * that hears it (compaction requests counted, not queued).
   */
  replaceHandlers<N extends AppEventName>(name: N, handler: Handler<N>): void {
    this.handlers.set(name, [handler as Handler<AppEventName>]);
  }

  /** Whether anything in this process hears `name`. */
  heard(name: AppEventName): boolean {
    return (this.handlers.get(name)?.length ?? 0) > 0;
  }

  /** Tells every handler of `name`, now; what they return is not waited for. */
  emit<N extends AppEventName>(name: N, payload: AppEventMap[N]): void {
    for (const handler of this.handlers.get(name) ?? []) {
      try {
        const done = handler(payload);
        if (done instanceof Promise) done.catch((error: unknown) => this.failed(name, error));
      } catch (error) {
        this.failed(name, error);
      }
    }
  }

  /** Tells every handler of `name` and waits for them all (a handler's failure is logged). */
  async emitAsync<N extends AppEventName>(name: N, payload: AppEventMap[N]): Promise<void> {
    await Promise.all(
      (this.handlers.get(name) ?? []).map(async (handler) => {
        try {
          await handler(payload);
        } catch (error) {
          this.failed(name, error);
        }
      }),
    );
  }

  private failed(name: AppEventName, error: unknown): void {
    this.logger.error(
      `a handler of '${name}' failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
