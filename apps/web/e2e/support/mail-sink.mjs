// The mailbox of every address in the e2e run: a real SMTP server (smtp-server) that scripts/e2e.mjs
// gives the api as SMTP_URL, keeping each mail parsed by mailparser, so a scenario opens the link a
// person would find in their mail.
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** Starts the sink on an ephemeral loopback port; `url` is for SMTP_URL. */
export async function startMailSink() {
  const received = [];
  const taken = new Set();
  const waiting = new Set();
  const server = new SMTPServer({
    // A local sink: no TLS to negotiate, no login asked.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? '';
          const href = /https?:\/\/\S+/.exec(text)?.[0];
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text,
            link: href ? new URL(href) : null,
          });
          for (const wake of waiting) wake();
          callback();
        })
        .catch((error) => callback(error));
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address();
  const find = (to, subject) =>
    received.find(
      (m) => !taken.has(m) && m.to.includes(to.toLowerCase()) && (!subject || subject.test(m.subject)),
    );

  return {
    url: `smtp://127.0.0.1:${port}`,

    /**
     * The next mail to `to` (whose subject matches `subject`, when given) not yet taken: received
     * already, or within `timeoutMs`. `{to, subject, text, link}`, `link` the first URL in the text.
     */
    next(to, { subject, timeoutMs = 10_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = find(to, subject);
          if (!mail) return;
          clearTimeout(timer);
          waiting.delete(check);
          taken.add(mail);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(
            new Error(`no mail to ${to}${subject ? ` matching ${subject}` : ''} within ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },

    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
