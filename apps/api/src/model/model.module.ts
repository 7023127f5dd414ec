import { Module } from '@nestjs/common';
import { BlobStoreModule } from '../blobs/blob-store.module';
import { MetricsModule } from '../observability/metrics.module';
import { AgentModels } from './agent-models';
import { ModelChoice } from './model-choice';

@Module({
  imports: [BlobStoreModule, MetricsModule],
  providers: [ModelChoice, AgentModels],
  exports: [ModelChoice, AgentModels],
})
export class ModelModule {}
