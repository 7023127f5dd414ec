import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from './app-config';
import { CLUSTER_CONFIG, loadClusterConfig, type ClusterConfig } from './cluster-config';

/**
 * Makes the parsed AppConfig injectable as `@Inject(APP_CONFIG)`, and this process's place among
 * its peers as `@Inject(CLUSTER_CONFIG)`. The one global module: configuration is read once at
 * start, imports nothing and is read by every folder, so it can hide no dependency between them.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, cluster: ClusterConfig = loadClusterConfig(process.env)): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: CLUSTER_CONFIG, useValue: cluster },
      ],
      exports: [APP_CONFIG, CLUSTER_CONFIG],
    };
  }
}
