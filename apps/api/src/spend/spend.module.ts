import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { MetricsModule } from '../observability/metrics.module';
import { SpendController } from './spend.controller';
import { SpendLedger } from './spend-ledger';
import { SpendLimits } from './spend-limits';

/** Spend limits per person: the ledger every conversation's model calls pass through, and its admin routes. */
@Module({
  imports: [DatabaseModule, MetricsModule],
  controllers: [SpendController],
  providers: [SpendLedger, SpendLimits],
  exports: [SpendLimits],
})
export class SpendModule {}
