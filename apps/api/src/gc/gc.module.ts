import { Module } from '@nestjs/common';
import { QueueModule } from '../queue/queue.module';
import { GcController } from './gc.controller';
import { GcProcessingModule } from './gc-processing.module';
import { GcScheduler } from './gc-scheduler';

/** Retention that runs: gc on a schedule, its processor, and its runs for admins. */
@Module({
  imports: [GcProcessingModule, QueueModule],
  controllers: [GcController],
  providers: [GcScheduler],
})
export class GcModule {}
