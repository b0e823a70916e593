/**
 * The log as a person reads it in a terminal (`LOG_FORMAT=text`, the default when standard output
 * is one): each JSON record of `logger.ts` becomes one short line, a request as
 * `14:03:07 GET /quote 200 12 ms`, nothing for static files (scripts, stylesheets, images, the
 * favicon), and an error as its message in words rather than a stack. Elsewhere the log stays JSON.
 */

/** pino's levels, as a line says them (info says nothing: it is what most lines are). */
const LEVELS: Readonly<Record<number, string>> = { 10: 'trace', 20: 'debug', 30: '', 40: 'warning', 50: 'error', 60: 'fatal' };

/** Paths of static files, whose requests a person does not need to read: Astro's bundles, the favicon, scripts, styles, images, fonts. */
const STATIC_PATH = /^\/(_astro\/|@|favicon)|\.(css|js|mjs|map|svg|png|jpe?g|gif|webp|avif|ico|woff2?)$/i;

/** Fields that say nothing to a person reading the line (or that the line says already). */
const QUIET = new Set(['time', 'level', 'msg', 'err', 'reqId', 'pid', 'hostname']);

type LogRecord = Record<string, unknown>;

/** An error in words: its message, and the cause beneath it. */
function errorWords(err: unknown): string {
  if (typeof err !== 'object' || err === null) return String(err);
  const { name, message, code, cause } = err as { name?: string; message?: string; code?: string | number; cause?: unknown };
  const named = `${name && name !== 'Error' ? `${name}: ` : ''}${message ?? ''}`;
  const said = code !== undefined && !String(message).includes(String(code)) ? `${named} (${code})` : named;
  return cause === undefined ? said : `${said}, because ${errorWords(cause)}`;
}

/** The wall-clock time of a record, `14:03:07`, in this machine's zone. */
function clock(time: unknown): string {
  const date = typeof time === 'string' || typeof time === 'number' ? new Date(time) : new Date();
  return Number.isNaN(date.getTime()) ? '--:--:--' : date.toTimeString().slice(0, 8);
}

/** The line of one request record (`src/server/request-log.ts`); `undefined` for a static file's. */
function requestLine(r: LogRecord): string | undefined {
  const path = typeof r.path === 'string' ? r.path : undefined;
  if (path !== undefined && STATIC_PATH.test(path)) return undefined;
  const parts = [clock(r.time), r.method ?? 'refused', path, r.status ?? 'no answer'];
  if (typeof r.durationMs === 'number') parts.push(`${Math.round(r.durationMs)} ms`);
  if (r.clientGone) parts.push('(the client left before the whole answer)');
  if (r.error) parts.push(`(${String(r.error)})`);
  if (r.refusedOrigin) parts.push(`(a form sent from ${String(r.refusedOrigin)}, not from this site)`);
  return parts.filter((p) => p !== undefined).join(' ');
}

/** One record of the JSON log as a person reads it, or `undefined` when it is not worth a line. */
export function readableLine(r: LogRecord): string | undefined {
  if (r.msg === 'request') return requestLine(r);
  // `npm start` says where it serves in a line of its own (`startupLine`).
  if (r.msg === 'listening') return undefined;
  const level = LEVELS[Number(r.level)] ?? '';
  const extra = Object.entries(r)
    .filter(([name]) => !QUIET.has(name))
    .map(([name, value]) => `${name} ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const text = `${r.msg ?? ''}${r.err !== undefined ? `: ${errorWords(r.err)}` : ''}${extra.length > 0 ? ` (${extra.join(', ')})` : ''}`;
  return `${clock(r.time)} ${level ? `${level}: ` : ''}${text}`;
}

/** A stream for pino that writes each JSON line it is given to `out` as its readable line. */
export function readableStream(out: NodeJS.WritableStream): { write(chunk: string): boolean } {
  return {
    write(chunk) {
      for (const json of chunk.split('\n')) {
        if (json.trim() === '') continue;
        let line: string | undefined;
        try {
          line = readableLine(JSON.parse(json) as LogRecord);
        } catch {
          line = json;
        }
        if (line !== undefined) out.write(`${line}\n`);
      }
      return true;
    },
  };
}
