import { Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TreeStore, type SqlClient } from '@sweatpants/tree-store';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { openDatabase } from './open-database';

/** Injection token of the api's SqlClient (an interface, so it needs one). */
export const SQL_CLIENT = Symbol('SqlClient');

/**
 * The database, migrated at start: provides the SqlClient and the TreeStore on it, and closes the
 * connection once the HTTP server has stopped.
 */
@Module({
  providers: [
    {
      provide: SQL_CLIENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => openDatabase(config, new Logger('Database')),
    },
    { provide: TreeStore, inject: [SQL_CLIENT], useFactory: (db: SqlClient) => new TreeStore(db) },
  ],
  exports: [SQL_CLIENT, TreeStore],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.db.close();
    new Logger('Database').log('database closed');
  }
}
