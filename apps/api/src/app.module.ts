import { Logger, Module, type BeforeApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { ApiExceptionFilter } from './errors/api-exception.filter';
import { HealthModule } from './health/health.module';

/** The whole api. Built from a parsed config, so tests boot it with their own. */
@Module({})
export class AppModule implements BeforeApplicationShutdown {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ConfigModule.forRoot(config), HealthModule],
      // A provider rather than useGlobalFilters, so Nest injects the filter's HttpAdapterHost.
      providers: [{ provide: APP_FILTER, useClass: ApiExceptionFilter }],
    };
  }

  beforeApplicationShutdown(signal?: string): void {
    new Logger('Main').log(`${signal ?? 'close'}: shutting down`);
  }
}
