import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail as the sink received it: the envelope's recipients and the parsed message. */
export interface ReceivedMail {
  to: string[];
  /** the sender's address */
  from: string;
  subject: string;
  text: string;
  /** the first link in the text */
  link: URL | null;
}

/** The token a mailed link carries (`?token=`). */
export const tokenOf = (mail: Pick<ReceivedMail, 'link'>): string =>
  mail.link?.searchParams.get('token') ?? '';

/**
 * A real SMTP server on an ephemeral port (smtp-server, the receiving half of nodemailer's
 * project) that keeps every mail it is handed, parsed by mailparser: what the api is given as
 * SMTP_URL in the specs, so a mail is read as a person's mail program would read it.
 */
export interface MailSink {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL */
  readonly url: string;
  readonly received: readonly ReceivedMail[];
  /** The next mail to `to` not yet taken (received already, or within `timeoutMs`). */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Resolves after `ms` when no mail to `to` arrived meanwhile; rejects when one did. */
  nothingFor(to: string, ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function startMailSink(): Promise<MailSink> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    // A local sink: no TLS to negotiate, no login asked.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed: ParsedMail) => {
          const text = parsed.text ?? '';
          const href = /https?:\/\/\S+/.exec(text)?.[0];
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: parsed.from?.value[0]?.address ?? '',
            subject: parsed.subject ?? '',
            text,
            link: href ? new URL(href) : null,
          });
          for (const wake of waiting) wake();
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const find = (to: string) => received.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
  const arrival = (to: string, timeoutMs: number) =>
    new Promise<ReceivedMail | null>((resolve) => {
      const check = () => {
        const mail = find(to);
        if (!mail) return;
        done(mail);
      };
      const timer = setTimeout(() => done(null), timeoutMs);
      const done = (mail: ReceivedMail | null) => {
        clearTimeout(timer);
        waiting.delete(check);
        resolve(mail);
      };
      waiting.add(check);
      check();
    });

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async next(to, timeoutMs = 5_000) {
      const mail = await arrival(to, timeoutMs);
      if (!mail)
        throw new Error(`no mail to ${to} within ${timeoutMs} ms (${received.length} received in all)`);
      taken.add(mail);
      return mail;
    },
    async nothingFor(to, ms) {
      const mail = await arrival(to, ms);
      if (mail) throw new Error(`a mail to ${to} arrived: ${mail.subject}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
