import { Global, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ConversationTraces } from './conversation-traces';
import { stopTracing } from './tracing-sdk';

/**
 * The product's spans (ConversationTraces) for every module that makes them. The SDK itself is
 * started before the app loads (tracing-sdk.ts); closing the app exports what is still batched.
 */
@Global()
@Module({ providers: [ConversationTraces], exports: [ConversationTraces] })
export class TracingModule implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    await stopTracing();
  }
}
