import { Logger, Module, type BeforeApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import type { DestinationStream } from 'pino';
import { AccountModule } from './account/account.module';
import { AccountEmailModule } from './account-email/account-email.module';
import { AdminModule } from './admin/admin.module';
import { AuthGuard } from './auth/auth.guard';
import { AuthModule } from './auth/auth.module';
import { OidcModule } from './auth/oidc/oidc.module';
import { BlobsModule } from './blobs/blobs.module';
import { CompactionModule } from './compaction/compaction.module';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { AgentsModule } from './agents/agents.module';
import { ConversationsModule } from './conversations/conversations.module';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { EventsModule } from './events/events.module';
import { GcModule } from './gc/gc.module';
import { HealthModule } from './health/health.module';
import { McpModule } from './mcp/mcp.module';
import { LoggingModule } from './observability/logging.module';
import { MetricsModule } from './observability/metrics.module';
import { QueueDashboardModule } from './observability/queue-dashboard.module';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { RealtimeModule } from './realtime/realtime.module';
import { TracingModule } from './tracing/tracing.module';

/** The whole api. Built from a parsed config, so tests boot it with their own. */
@Module({})
export class AppModule implements BeforeApplicationShutdown {
  static forRoot(config: AppConfig, options: { logDestination?: DestinationStream } = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TracingModule,
        EventsModule,
        LoggingModule.forRoot(options.logDestination),
        MetricsModule,
        HealthModule,
        AuthModule,
        OidcModule,
        AccountEmailModule,
        RateLimitModule,
        AgentsModule,
        ConversationsModule,
        BlobsModule,
        RealtimeModule,
        McpModule,
        AdminModule,
        AccountModule,
        QueueDashboardModule,
        CompactionModule,
        GcModule,
      ],
      providers: [
        // A provider rather than useGlobalFilters, so Nest injects the filter's HttpAdapterHost.
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        // In this order: who the caller is, then whether they are over their limit.
        { provide: APP_GUARD, useExisting: AuthGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
      ],
    };
  }

  beforeApplicationShutdown(signal?: string): void {
    new Logger('Main').log(`${signal ?? 'close'}: shutting down`);
  }
}
