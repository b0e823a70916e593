/**
 * Structured JSON logs (pino). Policy: one line per request (id, method, path, status, duration),
 * 4xx at info and 5xx at error; never a name, e-mail, phone, notes, message or query string.
 * In a terminal, the same records as lines a person reads (`LOG_FORMAT`, `log-line.ts`).
 */
import { pino, type Logger } from 'pino';
import { readableStream } from './log-line.ts';

/** How the log is written: JSON lines, or a readable line each (`LOG_FORMAT`; unset, text when standard output is a terminal). */
export type LogFormat = 'json' | 'text';

/** The format of `LOG_FORMAT` (`configured`), or, unset, text on a terminal and JSON elsewhere. */
export function logFormat(configured: LogFormat | undefined, out: { isTTY?: boolean } = process.stdout): LogFormat {
  return configured ?? (out.isTTY ? 'text' : 'json');
}

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

/** How many causes deep an error is logged (a cycle of causes ends there too). */
const MAX_CAUSES = 5;

/**
 * How an error appears in the log, decided here once (as Fastify registers pino's error serializer
 * once): every call logs `{ err }`. Its name, message, code and stack, and its `cause` in the same
 * shape (the driver's error under a `StoreUnavailableError`), and nothing else: a database driver's
 * error carries more enumerable fields (PostgreSQL's `detail` quotes the values of a row, a query
 * error its parameters), which could be a customer's details. (Not pino's `errWithCause`: it
 * copies every enumerable field of each error.)
 */
function errorFields(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const code = (err as { code?: unknown }).code;
  return {
    name: err.name,
    message: err.message,
    ...((typeof code === 'string' || typeof code === 'number') && { code }),
    stack: err.stack,
    ...(err.cause !== undefined && depth < MAX_CAUSES && { cause: errorFields(err.cause, depth + 1) }),
  };
}

/** The process's logger, writing JSON lines to `destination` (standard output by default), or, as `text`, a readable line each. */
export function createLogger(level: string, destination?: NodeJS.WritableStream, format: LogFormat = 'json'): Logger {
  return pino(
    {
      level,
      base: undefined,
      timestamp: isoTimeOncePerMs(),
      serializers: { err: (err: unknown) => errorFields(err) },
      // Belt and braces: if lead data (or the SMTP credentials) ever reaches a log call, it is censored, not written. (Not
      // `*.name` or `*.message`: those would also hide the name and message of every logged error.)
      redact: {
        paths: [
          'name',
          'email',
          'phone',
          'notes',
          'message',
          'body',
          'fields',
          'lead',
          'data',
          '*.email',
          '*.phone',
          '*.notes',
          '*.body',
          '*.fields',
          'auth',
          '*.auth',
          'pass',
          '*.pass',
          'smtp',
          '*.smtp',
        ],
        censor: '[redacted]',
      },
    },
    format === 'text' ? readableStream(destination ?? process.stdout) : (destination ?? pino.destination({ sync: false })),
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
