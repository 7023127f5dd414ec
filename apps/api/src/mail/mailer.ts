import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/** A mail to one person: plain text, short, its link (if any) built by `Mailer.link`. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * The one way the api mails people. With SMTP_URL it hands each mail to that server (nodemailer);
 * without, it writes each mail to the log instead, link included, so `npm start` with no
 * configuration still lets a person prove an address or reset a password from the log.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter | undefined;
  private readonly from: string;
  private readonly publicUrl: string;
  /** mails handed over in the background and not yet taken by the server */
  private readonly sending = new Set<Promise<void>>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.transport = config.mail.smtpUrl === undefined ? undefined : createTransport(config.mail.smtpUrl);
    this.from = config.mail.from;
    this.publicUrl = config.publicUrl;
  }

  /** A page of the web client at PUBLIC_URL, e.g. `link('/reset-password', {token})`. */
  link(path: string, query: Record<string, string> = {}): string {
    const url = new URL(path, `${this.publicUrl}/`);
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.toString();
  }

  /** Resolves once the mail server has taken the mail (or the log has it); rejects when it refuses. */
  async send(mail: Mail): Promise<void> {
    if (!this.transport) {
      this.logger.log(
        `mail to ${mail.to} (SMTP_URL unset: written here, not sent): ${mail.subject}\n${mail.text}`,
      );
      return;
    }
    await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.text });
  }

  /**
   * Sends without the caller waiting: a request that mails someone answers in the time it takes
   * whether or not a mail goes, and whatever the mail server's pace. A failure is logged (the
   * person asks again); it never fails the request.
   */
  post(mail: Mail): void {
    const sent = this.send(mail).catch((error: unknown) => {
      this.logger.warn(
        `mail to ${mail.to} not sent: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    this.sending.add(sent);
    void sent.finally(() => this.sending.delete(sent));
  }

  /** Mails already on their way are handed over before the process stops. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.sending]);
    this.transport?.close();
  }
}
