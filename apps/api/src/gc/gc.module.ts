import { Module } from '@nestjs/common';
import { GcController } from './gc.controller';
import { GcScheduler } from './gc-scheduler';

/** Retention that runs: gc on a schedule, and its runs for admins (the queue and GcRuns are global). */
@Module({ controllers: [GcController], providers: [GcScheduler] })
export class GcModule {}
