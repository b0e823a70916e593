/**
 * The one configuration module. It reads the environment once, names every invalid variable,
 * and returns a frozen object; nothing else in the project reads `process.env`.
 */
import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { monthsText, parseIsoDate } from '../lib/time.ts';
import { officeMail, type MailConfig } from './mail.ts';

export type { MailConfig, SmtpServer } from './mail.ts';

/** How long leads are kept by default: what `/privacy` promises (`DEFAULT_RETENTION_TEXT`). */
export const DEFAULT_RETENTION_DAYS = 730;

/** `DEFAULT_RETENTION_DAYS` as people say it: "24 months". */
export const DEFAULT_RETENTION_TEXT = monthsText(DEFAULT_RETENTION_DAYS);

/** The day v1 was launched: the default `Deprecation` date of the unversioned `/api/leads` alias. */
export const V1_LAUNCH_DATE = '2026-11-22T00:00:00Z';

const dateTime = (name: string) =>
  z
    .string()
    .trim()
    .refine((s) => parseIsoDate(s) !== undefined, {
      message: `${name} must be an ISO 8601 date (2026-11-22) or date-time with a zone (2026-11-22T00:00:00Z)`,
    })
    .transform((s) => parseIsoDate(s)!);

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

/** A HOST only this machine can reach, where `SITE_URL` may be left to name `localhost`. */
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/** Where the server listens, and what `SITE_URL` names, when neither is set. */
const DEFAULT_PORT = 4321;

const Env = z.object({
  SITE_URL: z
    .url({ protocol: /^https?$/, message: 'SITE_URL must be an absolute http(s) URL such as https://www.example-cleaning.com' })
    .optional()
    .transform((s) => s && new URL(s).origin),
  ENVIRONMENT: z.enum(['production', 'test'], { message: 'ENVIRONMENT must be production or test' }).optional(),
  HOST: z.string().trim().min(1, 'HOST must not be empty').default('localhost'),
  PORT: z
    .string()
    .default(String(DEFAULT_PORT))
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
  LOG_FORMAT: z.enum(['json', 'text'], { message: 'LOG_FORMAT must be json or text' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SQLITE_GROUP_COMMIT: z.enum(['on', 'off'], { message: 'SQLITE_GROUP_COMMIT must be on or off' }).default('on'),
  LEADS_RETENTION_DAYS: z
    .string()
    .default(String(DEFAULT_RETENTION_DAYS))
    .refine(
      (s) => /^\d{1,5}$/.test(s) && Number(s) >= 1,
      `LEADS_RETENTION_DAYS must be a whole number of days, at least 1 (${DEFAULT_RETENTION_DAYS} is ${DEFAULT_RETENTION_TEXT})`,
    )
    .transform(Number),
  BACKUP_DIR: z.string().trim().optional(),
  BACKUP_INTERVAL_HOURS: z
    .string()
    .default('24')
    .refine((s) => /^\d{1,4}$/.test(s) && Number(s) >= 1 && Number(s) <= 8760, 'BACKUP_INTERVAL_HOURS must be a whole number of hours from 1 to 8760')
    .transform(Number),
  BACKUP_KEEP: z
    .string()
    .default('14')
    .refine((s) => /^\d{1,4}$/.test(s) && Number(s) >= 1, 'BACKUP_KEEP must be a whole number of backups, at least 1')
    .transform(Number),
  OFFICE_ACTIONS_PER_MINUTE: z
    .string()
    .default('120')
    .refine(
      (s) => /^\d{1,5}$/.test(s) && Number(s) >= 1,
      'OFFICE_ACTIONS_PER_MINUTE must be a whole number, at least 1 (120 is far above a person working fast)',
    )
    .transform(Number),
  // The office's e-mail: parsed by `officeMail` below. Messages never repeat a value: SMTP_URL may
  // hold a password.
  SMTP_URL: z.string().trim().optional(),
  OFFICE_EMAIL: z.string().trim().optional(),
  MAIL_FROM: z.string().trim().optional(),
});

/** Scheduled backups of the SQLite store. */
export interface BackupSettings {
  readonly dir: string;
  readonly intervalHours: number;
  readonly keep: number;
}

/** The validated, frozen configuration of one process. */
export interface Config {
  readonly siteUrl: string;
  /** Whether `SITE_URL` was set; unset, `siteUrl` names localhost and the port (and `npm run dev` follows its own, `site-origins.ts`). */
  readonly siteUrlSet: boolean;
  /**
   * What this deployment is for, as every document states it (`ENVIRONMENT`): `production` takes
   * real leads; `test` takes none (and is what any origin that is not HTTPS is).
   */
  readonly environment: 'production' | 'test';
  readonly host: string;
  readonly port: number;
  readonly database: { readonly kind: 'sqlite'; readonly path: string; readonly groupCommit: boolean } | { readonly kind: 'postgres'; readonly url: string };
  readonly redisUrl: string | undefined;
  /** Addresses whose `X-Forwarded-For` is believed; `undefined` when none is (the default). */
  readonly trustProxy: BlockList | undefined;
  readonly leadsDeprecationDate: Date;
  readonly leadsSunsetDate: Date | undefined;
  readonly logLevel: string;
  /** `LOG_FORMAT`: JSON lines, or a readable line each; `undefined`: text when standard output is a terminal, JSON otherwise. */
  readonly logFormat: 'json' | 'text' | undefined;
  /** Leads older than this many days are deleted (`purge`, and once a day by the server). */
  readonly leadsRetentionDays: number;
  /** The office's e-mail about each new lead (`SMTP_URL`, `OFFICE_EMAIL`, `MAIL_FROM`); `undefined`: none. */
  readonly mail: MailConfig | undefined;
  /** Scheduled backups of the SQLite store (`BACKUP_DIR`, …); `undefined`: none. */
  readonly backups: BackupSettings | undefined;
  /** The changes (status, release, deletion) one signed-in session may make in a minute. */
  readonly officeActionsPerMinute: number;
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
  const trustProxyList = (raw.TRUST_PROXY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const trustProxy = new BlockList();
  for (const entry of trustProxyList) {
    if (!addTrusted(trustProxy, entry)) problems.push(`TRUST_PROXY: "${entry}" is not an IP address or CIDR range`);
  }
  const mail = officeMail(raw, problems);
  if (raw.BACKUP_DIR && /^postgres/.test(raw.DATABASE_URL?.trim() ?? '')) {
    problems.push('BACKUP_DIR: scheduled backups are of the SQLite store; back PostgreSQL up with its own tools (pg_dump, or base backups with WAL archiving)');
  }
  for (const name of ['BACKUP_INTERVAL_HOURS', 'BACKUP_KEEP'] as const) {
    if (raw[name] !== undefined && !raw.BACKUP_DIR)
      problems.push(`${name}: is set, but BACKUP_DIR is not: no backup would be made (set BACKUP_DIR, or unset ${name})`);
  }
  // Unset, SITE_URL names localhost: right for a start on this machine, wrong for one that other machines reach.
  if (!raw.SITE_URL && raw.HOST && !LOOPBACK_HOST.test(raw.HOST.trim()))
    problems.push(`SITE_URL: must be set when HOST (${raw.HOST.trim()}) lets other machines connect; unset, every link would name http://localhost`);
  if (problems.length > 0 || !parsed.success) {
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  // Unset, it follows the port, so that a local start on another port links to itself.
  const siteUrl = e.SITE_URL ?? `http://localhost:${e.PORT === 0 ? DEFAULT_PORT : e.PORT}`;
  if (e.ENVIRONMENT === 'production' && !siteUrl.startsWith('https:'))
    throw new ConfigError(
      `Invalid configuration:\n  ENVIRONMENT: production needs an https SITE_URL (${siteUrl} is not): real customers' details travel only over HTTPS`,
    );
  const database = e.DATABASE_URL.startsWith('file:')
    ? ({ kind: 'sqlite', path: e.DATABASE_URL.slice('file:'.length), groupCommit: e.SQLITE_GROUP_COMMIT === 'on' } as const)
    : ({ kind: 'postgres', url: e.DATABASE_URL } as const);
  return Object.freeze({
    siteUrl,
    siteUrlSet: e.SITE_URL !== undefined,
    environment: e.ENVIRONMENT ?? (siteUrl.startsWith('https:') ? 'production' : 'test'),
    host: e.HOST,
    port: e.PORT,
    database: Object.freeze(database),
    redisUrl: e.REDIS_URL,
    trustProxy: trustProxyList.length > 0 ? trustProxy : undefined,
    leadsDeprecationDate: e.LEADS_DEPRECATION_DATE,
    leadsSunsetDate: e.LEADS_SUNSET_DATE,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    leadsRetentionDays: e.LEADS_RETENTION_DAYS,
    mail,
    backups: e.BACKUP_DIR ? Object.freeze({ dir: e.BACKUP_DIR, intervalHours: e.BACKUP_INTERVAL_HOURS, keep: e.BACKUP_KEEP }) : undefined,
    officeActionsPerMinute: e.OFFICE_ACTIONS_PER_MINUTE,
  });
}

let cached: Config | undefined;
/** The process's configuration, read from `process.env` on first use (build time and run time alike). */
export function getConfig(): Config {
  cached ??= loadConfig(process.env);
  return cached;
}
