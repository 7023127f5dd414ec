import { Module } from '@nestjs/common';
import { QueueConnection } from './queue-connection';

/** Jobs' transport: Redis when REDIS_URL is set, in-process otherwise. */
@Module({ providers: [QueueConnection], exports: [QueueConnection] })
export class QueueModule {}
