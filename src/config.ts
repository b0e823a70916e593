/**
 * The one configuration module. It reads the environment once, names every invalid variable,
 * and returns a frozen object; nothing else in the project reads `process.env`.
 */
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';

/** How long leads are kept by default: the 24 months `/privacy` promises. */
export const DEFAULT_RETENTION_DAYS = 730;

/** The day v1 was launched: the default `Deprecation` date of the unversioned `/api/leads` alias. */
export const V1_LAUNCH_DATE = '2026-11-22T00:00:00Z';

const dateTime = (name: string) =>
  z
    .string()
    .trim()
    .refine((s) => /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s)), {
      message: `${name} must be an ISO 8601 date (2026-11-22) or date-time with a zone (2026-11-22T00:00:00Z)`,
    })
    .transform((s) => new Date(s));

/** Parses one TRUST_PROXY entry (an IP or a CIDR) into the block list; false when it is not one. */
function addTrusted(list: BlockList, entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (!address || family === 0 || rest.length > 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) {
    list.addAddress(address, type);
    return true;
  }
  const bits = Number(prefix);
  if (!/^\d{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) return false;
  list.addSubnet(address, bits, type);
  return true;
}

const Env = z.object({
  SITE_URL: z
    .url({ protocol: /^https?$/, message: 'SITE_URL must be an absolute http(s) URL such as https://www.example-cleaning.com' })
    .default('http://localhost:4321')
    .transform((s) => new URL(s).origin),
  HOST: z.string().trim().min(1, 'HOST must not be empty').default('localhost'),
  PORT: z
    .string()
    .default('4321')
    .refine((s) => /^\d{1,5}$/.test(s) && Number(s) <= 65535, 'PORT must be a whole number from 0 to 65535')
    .transform(Number),
  DATABASE_URL: z
    .string()
    .trim()
    .default('file:./data/leads.sqlite')
    .refine((s) => /^file:.+/.test(s) || /^postgres(ql)?:\/\//.test(s), {
      message: 'DATABASE_URL must be file:<path> (SQLite) or postgres://… (PostgreSQL)',
    })
    .refine((s) => !/^file:(:memory:|.*mode=memory)/.test(s), 'DATABASE_URL must name a file: an in-memory database loses every lead on restart'),
  REDIS_URL: z
    .string()
    .trim()
    .optional()
    .transform((s) => (s ? s : undefined))
    .refine((s) => s === undefined || /^rediss?:\/\//.test(s), 'REDIS_URL must be redis://… or rediss://…'),
  TRUST_PROXY: z.string().default(''),
  LEADS_DEPRECATION_DATE: dateTime('LEADS_DEPRECATION_DATE').prefault(V1_LAUNCH_DATE),
  LEADS_SUNSET_DATE: z
    .string()
    .optional()
    .transform((s) => (s?.trim() ? s.trim() : undefined))
    .pipe(dateTime('LEADS_SUNSET_DATE').optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SQLITE_GROUP_COMMIT: z.enum(['on', 'off'], { message: 'SQLITE_GROUP_COMMIT must be on or off' }).default('on'),
  LEADS_RETENTION_DAYS: z
    .string()
    .default(String(DEFAULT_RETENTION_DAYS))
    .refine((s) => /^\d{1,5}$/.test(s) && Number(s) >= 1, 'LEADS_RETENTION_DAYS must be a whole number of days, at least 1 (730 is 24 months)')
    .transform(Number),
});

/** The validated, frozen configuration of one process. */
export interface Config {
  readonly siteUrl: string;
  readonly host: string;
  readonly port: number;
  readonly database: { readonly kind: 'sqlite'; readonly path: string; readonly groupCommit: boolean } | { readonly kind: 'postgres'; readonly url: string };
  readonly redisUrl: string | undefined;
  /** Addresses whose `X-Forwarded-For` is believed; `undefined` when none is (the default). */
  readonly trustProxy: BlockList | undefined;
  readonly leadsDeprecationDate: Date;
  readonly leadsSunsetDate: Date | undefined;
  readonly logLevel: string;
  /** Leads older than this many days are deleted (`purge`, and once a day by the server). */
  readonly leadsRetentionDays: number;
}

/** Raised when a variable is invalid; its message names every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Validates an environment (by default the process's) into a frozen `Config`, or throws `ConfigError`. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const blank = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v);
  const raw = Object.fromEntries(Object.keys(Env.shape).map((k) => [k, blank(env[k])]));
  const parsed = Env.safeParse(raw);
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(`${String(issue.path[0])}: ${issue.message}`);
  }
  const trustProxyList = (raw.TRUST_PROXY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const trustProxy = new BlockList();
  for (const entry of trustProxyList) {
    if (!addTrusted(trustProxy, entry)) problems.push(`TRUST_PROXY: "${entry}" is not an IP address or CIDR range`);
  }
  if (problems.length > 0 || !parsed.success) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const database = e.DATABASE_URL.startsWith('file:')
    ? ({ kind: 'sqlite', path: e.DATABASE_URL.slice('file:'.length), groupCommit: e.SQLITE_GROUP_COMMIT === 'on' } as const)
    : ({ kind: 'postgres', url: e.DATABASE_URL } as const);
  return Object.freeze({
    siteUrl: e.SITE_URL,
    host: e.HOST,
    port: e.PORT,
    database: Object.freeze(database),
    redisUrl: e.REDIS_URL,
    trustProxy: trustProxyList.length > 0 ? trustProxy : undefined,
    leadsDeprecationDate: e.LEADS_DEPRECATION_DATE,
    leadsSunsetDate: e.LEADS_SUNSET_DATE,
    logLevel: e.LOG_LEVEL,
    leadsRetentionDays: e.LEADS_RETENTION_DAYS,
  });
}

let cached: Config | undefined;
/** The process's configuration, read from `process.env` on first use (build time and run time alike). */
export function getConfig(): Config {
  cached ??= loadConfig(process.env);
  return cached;
}
