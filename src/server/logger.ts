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
      // Belt and braces: if lead data ever reaches a log call, it is censored, not written. (Not
      // `*.name` or `*.message`: those would also hide the name and message of every logged error.)
      redact: {
        paths: ['name', 'email', 'phone', 'notes', 'message', 'body', 'fields', 'lead', 'data', '*.email', '*.phone', '*.notes', '*.body', '*.fields'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ sync: false }),
  );
}
