/**
 * Structured JSON logs (pino). Policy: one line per request (id, method, path, status, duration),
 * 4xx at info and 5xx at error; never a name, e-mail, phone, notes, message or query string.
 */
import { pino, type Logger } from 'pino';

/** The process's logger, writing JSON lines to `destination` (standard output by default). */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      // Belt and braces: if lead fields ever reach a log call, they are censored, not written.
      redact: { paths: ['name', 'email', 'phone', 'notes', 'message', '*.name', '*.email', '*.phone', '*.notes', '*.message', 'body', '*.body'], censor: '[redacted]' },
    },
    destination ?? pino.destination({ sync: false }),
  );
}
