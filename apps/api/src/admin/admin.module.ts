import { Module } from '@nestjs/common';
import { ConversationsModule } from '../conversations/conversations.module';
import { DatabaseModule } from '../database/database.module';
import { AdminController } from './admin.controller';

@Module({ imports: [DatabaseModule, ConversationsModule], controllers: [AdminController] })
export class AdminModule {}
