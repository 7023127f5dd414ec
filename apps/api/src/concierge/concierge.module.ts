import { Module } from '@nestjs/common';
import type { SqlClient } from '@sweatpants/tree-store';
import { DatabaseModule, SQL_CLIENT } from '../database/database.module';
import { PgActivityStores } from './pg-activity-store';

/**
 * The concierge's data: provides PgActivityStores, whose `forOwner(ownerId)` is the store a
 * conversation's Runner sets with `provideActivityStore`, and whose `seedDemo(ownerId)` gives a
 * new account its demo activities.
 */
@Module({
  imports: [DatabaseModule],
  providers: [
    {
      provide: PgActivityStores,
      inject: [SQL_CLIENT],
      useFactory: (db: SqlClient) => new PgActivityStores(db),
    },
  ],
  exports: [PgActivityStores],
})
export class ConciergeModule {}
