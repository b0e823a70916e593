/**
 * A real SMTP server for the mail tests (smtp-server, from Nodemailer's authors), on a loopback
 * port: it accepts every message, keeps the envelope and the raw bytes, and parses them with
 * mailparser. `stop()` closes the port and `start()` opens it again on the same port, for outages.
 */
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './server.ts';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  /** The message as it came over the wire. */
  raw: string;
  parsed: ParsedMail;
  /** The user it authenticated as, if it did. */
  user: string | undefined;
}

export interface SmtpSink {
  port: number;
  /** `smtp://user:password@127.0.0.1:port`, with the sink's credentials. */
  url: string;
  received: ReceivedMail[];
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves with the messages once at least `count` have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
}

export const SMTP_USER = 'lead-intake';
export const SMTP_PASSWORD = 'smtp-secret-4e1b9c';

/** A sink on a free port; not listening until `start()` (unless `listening`). */
export async function smtpSink(options: { listening?: boolean } = {}): Promise<SmtpSink> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  const sink: SmtpSink = {
    port,
    url: `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${port}`,
    received,
    async start() {
      server = new SMTPServer({
        logger: false,
        disabledCommands: ['STARTTLS'],
        allowInsecureAuth: true,
        authOptional: false,
        closeTimeout: 200,
        onAuth(auth, _session, callback) {
          if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
          else callback(new Error('Invalid username or password'));
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            simpleParser(raw).then((parsed) => {
              received.push({
                envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address) },
                raw,
                parsed,
                user: session.user as string | undefined,
              });
              callback();
            }, callback);
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
    },
    async stop() {
      const closing = server;
      server = undefined;
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    async waitFor(count, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, received ${received.length} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return received;
    },
  };
  if (options.listening !== false) await sink.start();
  return sink;
}
