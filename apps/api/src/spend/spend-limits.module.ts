import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { MetricsModule } from '../observability/metrics.module';
import { SpendLedger } from './spend-ledger';
import { SpendLimits } from './spend-limits';

/**
 * The ledger and the limits without the admin routes: what any process that calls a model on a
 * person's behalf needs (an api's conversations, a worker's summaries).
 */
@Module({
  imports: [DatabaseModule, MetricsModule],
  providers: [SpendLedger, SpendLimits],
  exports: [SpendLedger, SpendLimits],
})
export class SpendLimitsModule {}
