import { Module } from '@nestjs/common';
import { SpendController } from './spend.controller';
import { SpendLimitsModule } from './spend-limits.module';

/** Spend limits per person: the ledger every conversation's model calls pass through, and its admin routes. */
@Module({
  imports: [SpendLimitsModule],
  controllers: [SpendController],
  exports: [SpendLimitsModule],
})
export class SpendModule {}
