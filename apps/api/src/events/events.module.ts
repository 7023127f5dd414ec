import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AppEventHandlers } from './app-event-handlers';
import { AppEvents } from './app-events';

/** The process's in-process event map (AppEvents), for every module to emit on and hear from. */
@Global()
@Module({
  imports: [DiscoveryModule],
  // A factory, not a value: each application (two in one test process, say) has its own.
  providers: [{ provide: AppEvents, useFactory: () => new AppEvents() }, AppEventHandlers],
  exports: [AppEvents],
})
export class EventsModule {}
