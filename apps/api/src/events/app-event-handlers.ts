import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { AppEvents, ON_APP_EVENT, type AppEventHandler, type AppEventName } from './app-events';

/**
 * Finds, as the application starts, every provider's (and gateway's) method marked
 * `@OnAppEvent(name)` and adds it to the process's AppEvents: handlers are declared where they
 * live, and nothing wires them by hand.
 */
@Injectable()
export class AppEventHandlers implements OnApplicationBootstrap {
  constructor(
    private readonly events: AppEvents,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || wrapper.isNotMetatype) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const handler = (instance as Record<string, unknown>)[method];
        if (typeof handler !== 'function') continue;
        const name = Reflect.getMetadata(ON_APP_EVENT, handler) as AppEventName | undefined;
        if (name) this.events.on(name, (handler as AppEventHandler<AppEventName>).bind(instance));
      }
    }
  }
}
