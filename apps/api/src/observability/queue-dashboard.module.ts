import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { QueueDashboardController } from './queue-dashboard.controller';
import { QueueDashboard } from './queue-dashboard';

/** The admins' view of the job queues (bull-board), when they run through Redis. */
@Module({
  imports: [AuthModule],
  controllers: [QueueDashboardController],
  providers: [QueueDashboard],
  exports: [QueueDashboard],
})
export class QueueDashboardModule {}
