/**
 * Structured JSON logs (pino). Policy: one line per request (id, method, path, status, duration),
 * 4xx at info and 5xx at error; never a name, e-mail, phone, notes, message or query string.
 */
import { pino, type Logger } from 'pino';

/**
 * pino's ISO time, formatted once per millisecond: under load many lines share a millisecond, and
 * `toISOString` is a good part of a line's cost.
 */
function isoTimeOncePerMs(): () => string {
  let lastMs = -1;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

/** The process's logger, writing JSON lines to `destination` (standard output by default). */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: isoTimeOncePerMs(),
      // Belt and braces: if lead data (or the SMTP credentials) ever reaches a log call, it is censored, not written. (Not
      // `*.name` or `*.message`: those would also hide the name and message of every logged error.)
      redact: {
        paths: ['name', 'email', 'phone', 'notes', 'message', 'body', 'fields', 'lead', 'data', '*.email', '*.phone', '*.notes', '*.body', '*.fields', 'auth', '*.auth', 'pass', '*.pass', 'smtp', '*.smtp'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ sync: false }),
  );
}

/**
 * The logger of the one line per request. That line is built in one place (the server) from fixed
 * fields that carry no personal data (id, method, path without query, status, duration), so it
 * skips redaction, which would double the cost of the line on the static path.
 */
export function requestLogger(logger: Logger): Logger {
  return logger.child({}, { redact: [] });
}
