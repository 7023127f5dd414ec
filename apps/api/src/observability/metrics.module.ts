import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { Metrics } from './metrics';

/** The process's metrics: one instance, imported by whatever counts something. */
@Module({ controllers: [MetricsController], providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}
