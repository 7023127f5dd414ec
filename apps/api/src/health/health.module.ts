import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { ModelModule } from '../model/model.module';
import { QueueModule } from '../queue/queue.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

@Module({
  imports: [DatabaseModule, QueueModule, ModelModule],
  controllers: [HealthController],
  providers: [HealthService],
})
export class HealthModule {}
