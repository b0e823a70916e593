/**
 * The PostgreSQL store's pool, shared by its roles: opened, its durability checked and migrated
 * under an advisory lock; with the helpers every role uses: one transaction on one client, and the
 * mapping of connection failures to the domain's.
 */
import pg from 'pg';
import { storedConsent, type LeadRecord } from '../../leads/lead.ts';
import { CommitOutcomeUnknownError, StoreUnavailableError, type AuditNote } from '../../leads/store.ts';
import { POSTGRES_MIGRATIONS } from './migrations.ts';

/** Any constant: the advisory lock that serialises migrations of instances starting at once. */
const MIGRATION_LOCK = 7_311_204;

// Connection failures, shutdowns and resource exhaustion (too many connections, a full disk, an
// I/O error, no memory): the store cannot take the lead now, and nothing was stored.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53000',
  '53100',
  '53200',
  '53300',
  '58030',
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
]);
function isUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return UNAVAILABLE_CODES.has(e?.code ?? '') || (!(err instanceof pg.DatabaseError) && /timeout|terminat|Connection|connect/i.test(e?.message ?? ''));
}

/**
 * Whether a failed COMMIT leaves its outcome unknown: the connection was lost (or the server shut
 * down) after COMMIT was sent, so the transaction may have committed. An error the server answered
 * to COMMIT (a deferred constraint, a full disk) means it was rolled back.
 */
function commitOutcomeUnknown(err: unknown): boolean {
  return !(err instanceof pg.DatabaseError) || /^57P0[123]$/.test(err.code ?? '');
}

/** A lead as the `leads` table holds it. */
export interface LeadRow {
  id: string;
  reference: string;
  form_type: 'quote' | 'support';
  received_at: Date;
  received_via: string;
  fields: LeadRecord['fields'];
  phone_e164: string;
  email_normalised: string;
  fingerprint: string;
  consent: LeadRecord['consent'];
  in_service_area: boolean | null;
  answer_by?: Date | null;
  /** Joined from `disclosures` by the export. */
  disclosure_text: string | null;
}

/** A lead row as the domain's record. */
export function rowToLead(r: LeadRow): LeadRecord {
  const consent = storedConsent(r.consent);
  return {
    id: r.id,
    reference: r.reference,
    formType: r.form_type,
    receivedAt: r.received_at.toISOString(),
    receivedVia: r.received_via,
    fields: r.fields,
    phoneE164: r.phone_e164,
    emailNormalised: r.email_normalised,
    fingerprint: r.fingerprint,
    consent,
    ...(r.in_service_area !== null && r.in_service_area !== undefined && { inServiceArea: r.in_service_area }),
    ...(r.answer_by && { answerBy: r.answer_by.toISOString() }),
    ...(r.disclosure_text !== null && consent.disclosureVersion !== null && { disclosure: { version: consent.disclosureVersion, text: r.disclosure_text } }),
  };
}

/** The pool and what every role of the PostgreSQL store does with it. */
export interface PostgresHandle {
  pool: pg.Pool;
  /** Runs `fn` in a transaction on one client, mapping connection failures to StoreUnavailableError. */
  transaction<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T>;
  /** Rethrows `err` as StoreUnavailableError when it means PostgreSQL cannot be reached: for `.catch` of a query. */
  unavailable(err: unknown): never;
}

/** Writes a line of the office's audit trail on `c`, inside the caller's transaction. */
export async function writeAudit(c: Pick<pg.PoolClient, 'query'>, note: AuditNote): Promise<void> {
  await c.query('INSERT INTO office_audit (at, actor, action, detail) VALUES ($1, $2, $3, $4)', [note.at, note.actor, note.action, note.detail]);
}

/** `url` whose connections commit without waiting for the disk (libpq's `options`, beside any it has): for tests alone. */
function withoutWaitingForDisk(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `${parsed.searchParams.get('options') ?? ''} -c synchronous_commit=off`.trim());
  return parsed.toString();
}

/** Opens a pool on `url`, checks that a commit means on disk (unless `durable` is false: tests alone), and applies migrations. */
export async function openPostgresHandle(url: string, options: { durableCommits?: boolean; connectionTimeoutMs?: number } = {}): Promise<PostgresHandle> {
  const durable = options.durableCommits !== false;
  const connectionString = durable ? url : withoutWaitingForDisk(url);
  const connectionTimeoutMillis = options.connectionTimeoutMs ?? 3_000;
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis, idleTimeoutMillis: 30_000, query_timeout: 10_000 });
  // An idle client whose server went away emits 'error' on the pool: it is discarded, not fatal.
  pool.on('error', () => {});

  async function transaction<T>(fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw new StoreUnavailableError('PostgreSQL cannot be reached', { cause: err });
    }
    // A checked-out client whose connection drops emits 'error' (the pool listens only to idle
    // ones): without a listener that would end the process. The query in flight rejects anyway.
    const onConnectionError = () => {};
    client.on('error', onConnectionError);
    let broken: unknown;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      let committed: pg.QueryResult;
      try {
        committed = await client.query('COMMIT');
      } catch (err) {
        if (commitOutcomeUnknown(err)) throw new CommitOutcomeUnknownError('PostgreSQL connection failed after COMMIT was sent', { cause: err });
        throw err;
      }
      // COMMIT of a transaction that had failed answers ROLLBACK, without an error.
      if (committed.command !== 'COMMIT') throw new Error(`PostgreSQL answered COMMIT with ${committed.command}: the transaction was rolled back`);
      return result;
    } catch (err) {
      broken = err instanceof StoreUnavailableError || isUnavailable(err) ? err : undefined;
      await client.query('ROLLBACK').catch(() => {});
      if (err instanceof StoreUnavailableError) throw err;
      throw broken ? new StoreUnavailableError('PostgreSQL connection failed or cannot write', { cause: err }) : err;
    } finally {
      client.off('error', onConnectionError);
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  await transaction(async (c) => {
    // A receipt is sent after COMMIT returns: that must mean the lead is on disk.
    const fsync = (await c.query<{ fsync: string }>('SHOW fsync')).rows[0]?.fsync;
    const commit = (await c.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]?.synchronous_commit;
    if (durable && (fsync !== 'on' || commit === 'off')) {
      throw new Error(
        `PostgreSQL must run with fsync=on and synchronous_commit on (found fsync=${fsync}, ` +
          `synchronous_commit=${commit}): otherwise an acknowledged lead can be lost`,
      );
    }
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await c.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const applied = new Set((await c.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    for (const m of POSTGRES_MIGRATIONS) {
      if (applied.has(m.version)) continue;
      await c.query(m.sql);
      await c.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
    }
  }).catch(async (err) => {
    await pool.end().catch(() => {});
    throw err;
  });

  function unavailable(err: unknown): never {
    throw isUnavailable(err) ? new StoreUnavailableError('PostgreSQL cannot be reached', { cause: err }) : err;
  }

  return { pool, transaction, unavailable };
}
