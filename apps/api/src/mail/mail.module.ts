import { Module } from '@nestjs/common';
import { Mailer } from './mailer';

/** The Mailer, for whatever in the api mails people. */
@Module({ providers: [Mailer], exports: [Mailer] })
export class MailModule {}
