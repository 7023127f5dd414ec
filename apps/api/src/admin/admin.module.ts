import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { DatabaseModule } from '../database/database.module';
import { AuthModule } from '../auth/auth.module';
import { AccountEventsController } from './account-events.controller';
import { AdminController } from './admin.controller';

@Module({
  imports: [DatabaseModule, ConversationsModule, AuthModule],
  controllers: [AdminController, AccountEventsController],
})
export class AdminModule {}
