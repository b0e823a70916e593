/**
 * The PostgreSQL lead store for deployments of more than one instance (`pg` with a pool). The same
 * behaviour as the SQLite store: a receipt only after COMMIT; idempotency keys and duplicate
 * detection decided by unique keys inside one transaction, so that concurrent requests on several
 * instances cannot both win; versioned migrations applied at start-up under an advisory lock.
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { receiptOf, storedConsent, type LeadRecord } from '../leads/lead.ts';
import {
  CommitOutcomeUnknownError, REPLAY_WINDOW_MS, StoreUnavailableError,
  type DeletionRecord, type IdempotencyClaim, type LeadFilter, type LeadStore, type OutboxEntry, type PersonMatch, type Removed, type SubmitOutcome,
} from '../leads/store.ts';
import { POSTGRES_MIGRATIONS } from './migrations.ts';

/**
 * A conflicting claim that is still fresh makes the transaction roll back (nothing stored); the
 * answer is then read from the row that won.
 */
class Lost extends Error {}

/** Any constant: the advisory lock that serialises migrations of instances starting at once. */
const MIGRATION_LOCK = 7_311_204;

// Connection failures, shutdowns and resource exhaustion (too many connections, a full disk, an
// I/O error, no memory): the store cannot take the lead now, and nothing was stored.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE',
  '57P01', '57P02', '57P03', '53000', '53100', '53200', '53300', '58030', '08000', '08003', '08006', '08001', '08004',
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

interface LeadRow {
  id: string;
  form_type: 'quote' | 'support';
  received_at: Date;
  received_via: string;
  fields: Record<string, string | boolean>;
  phone_e164: string;
  email_normalised: string;
  fingerprint: string;
  consent: LeadRecord['consent'];
  /** Joined from `disclosures` by the export. */
  disclosure_text: string | null;
}

function rowToLead(r: LeadRow): LeadRecord {
  const consent = storedConsent(r.consent);
  return {
    id: r.id,
    formType: r.form_type,
    receivedAt: r.received_at.toISOString(),
    receivedVia: r.received_via,
    fields: r.fields,
    phoneE164: r.phone_e164,
    emailNormalised: r.email_normalised,
    fingerprint: r.fingerprint,
    consent,
    ...(r.disclosure_text !== null && consent.disclosureVersion !== null && { disclosure: { version: consent.disclosureVersion, text: r.disclosure_text } }),
  };
}

/** How the PostgreSQL store is opened. */
export interface PostgresStoreOptions {
  /** Write each new lead's notification to the office into the outbox, in the lead's transaction. */
  outbox?: boolean;
}

/** Opens a pool on `url`, applies migrations, and returns the store. */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<LeadStore> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 3_000, idleTimeoutMillis: 30_000, query_timeout: 10_000 });
  // An idle client whose server went away emits 'error' on the pool: it is discarded, not fatal.
  pool.on('error', () => {});

  /** Runs `fn` in a transaction on one client, mapping connection failures to StoreUnavailableError. */
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
    if (fsync !== 'on' || commit === 'off') {
      throw new Error(`PostgreSQL must run with fsync=on and synchronous_commit on (found fsync=${fsync}, synchronous_commit=${commit}): otherwise an acknowledged lead can be lost`);
    }
    await c.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await c.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())');
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

  async function submit(lead: LeadRecord, claim: IdempotencyClaim | undefined): Promise<SubmitOutcome> {
    const receivedAt = new Date(lead.receivedAt);
    const since = new Date(receivedAt.getTime() - REPLAY_WINDOW_MS);
    const receipt = receiptOf(lead);
    try {
      return await transaction(async (c) => {
        await c.query(
          `INSERT INTO leads (id, form_type, received_at, received_via, fields, phone_e164, email_normalised, fingerprint, consent)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [lead.id, lead.formType, receivedAt, lead.receivedVia, JSON.stringify(lead.fields), lead.phoneE164, lead.emailNormalised, lead.fingerprint, JSON.stringify(lead.consent)],
        );
        if (lead.disclosure) {
          await c.query('INSERT INTO disclosures (version, text, first_seen_at) VALUES ($1, $2, $3) ON CONFLICT (version) DO NOTHING', [lead.disclosure.version, lead.disclosure.text, receivedAt]);
        }
        if (claim) {
          const won = await c.query(
            `INSERT INTO idempotency_keys (key, request_hash, lead_id, response, created_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (key) DO UPDATE SET request_hash = excluded.request_hash, lead_id = excluded.lead_id,
               response = excluded.response, created_at = excluded.created_at
             WHERE idempotency_keys.created_at <= $6`,
            [claim.key, claim.requestHash, lead.id, JSON.stringify(receipt), receivedAt, since],
          );
          if (won.rowCount === 0) throw new Lost('key');
        }
        const first = await c.query(
          `INSERT INTO lead_fingerprints (fingerprint, lead_id, received_at) VALUES ($1, $2, $3)
           ON CONFLICT (fingerprint) DO UPDATE SET lead_id = excluded.lead_id, received_at = excluded.received_at
           WHERE lead_fingerprints.received_at <= $4`,
          [lead.fingerprint, lead.id, receivedAt, since],
        );
        if (first.rowCount === 0) throw new Lost('duplicate');
        if (options.outbox) await c.query('INSERT INTO outbox (lead_id, created_at, next_attempt_at) VALUES ($1, $2, $2)', [lead.id, receivedAt]);
        return { kind: 'created', receipt } as const;
      });
    } catch (err) {
      if (!(err instanceof Lost)) throw err;
      if (err.message === 'key') {
        const row = (await pool.query<{ request_hash: string; response: SubmitOutcome & { id: string } }>('SELECT request_hash, response FROM idempotency_keys WHERE key = $1', [claim!.key]).catch(unavailable)).rows[0]!;
        return row.request_hash === claim!.requestHash ? { kind: 'replayed', receipt: row.response as never } : { kind: 'key_reused' };
      }
      const row = (await pool.query<{ lead_id: string }>('SELECT lead_id FROM lead_fingerprints WHERE fingerprint = $1', [lead.fingerprint]).catch(unavailable)).rows[0]!;
      return { kind: 'duplicate', leadId: row.lead_id };
    }
  }

  const personColumn = (match: PersonMatch) => (match.kind === 'email' ? 'email_normalised' : 'phone_e164');

  async function countPerson(c: pg.PoolClient, match: PersonMatch): Promise<Removed> {
    const leads = `SELECT id FROM leads WHERE ${personColumn(match)} = $1`;
    const count = async (sql: string) => Number((await c.query<{ n: string }>(sql, [match.value]).catch(unavailable)).rows[0]!.n);
    return {
      leads: await count(`SELECT count(*) AS n FROM (${leads}) AS l`),
      idempotencyKeys: await count(`SELECT count(*) AS n FROM idempotency_keys WHERE lead_id IN (${leads})`),
      fingerprints: await count(`SELECT count(*) AS n FROM lead_fingerprints WHERE lead_id IN (${leads})`),
      officeEmails: (await c.query<{ lead_id: string }>(`SELECT lead_id FROM outbox WHERE sent_at IS NOT NULL AND lead_id IN (${leads}) ORDER BY lead_id`, [match.value]).catch(unavailable)).rows.map((r) => r.lead_id),
    };
  }

  function unavailable(err: unknown): never {
    throw isUnavailable(err) ? new StoreUnavailableError('PostgreSQL cannot be reached', { cause: err }) : err;
  }

  return {
    kind: 'postgres',
    submit,
    ping: async () => void (await pool.query('SELECT 1').catch(unavailable)),
    async *exportLeads(filter: LeadFilter = {}) {
      // Keyset pages, so that an export of any size holds one page in memory at a time.
      let after: [Date, string] = [new Date(0), ''];
      const range = [filter.since ?? new Date(0), filter.until ?? new Date('9999-12-31T00:00:00Z'), filter.form ?? null];
      for (;;) {
        const { rows } = await pool.query<LeadRow>(
          `SELECT leads.*, disclosures.text AS disclosure_text FROM leads
           LEFT JOIN disclosures ON disclosures.version = leads.consent->>'disclosureVersion'
           WHERE (received_at, id) > ($1, $2) AND received_at >= $3 AND received_at < $4 AND ($5::text IS NULL OR form_type = $5)
           ORDER BY received_at, id LIMIT 500`,
          [...after, ...range],
        ).catch(unavailable);
        for (const row of rows) yield rowToLead(row);
        if (rows.length < 500) return;
        after = [rows.at(-1)!.received_at, rows.at(-1)!.id];
      }
    },
    countPerson: async (match) => {
      const client = await pool.connect().catch(unavailable);
      try {
        return await countPerson(client, match);
      } finally {
        client.release();
      }
    },
    deletePerson: (match, record) =>
      transaction(async (c) => {
        // The person's leads are locked first, in the order a purge takes them (leads, then their
        // records), so that an erasure and a purge never wait for each other in a cycle.
        await c.query(`SELECT id FROM leads WHERE ${personColumn(match)} = $1 FOR UPDATE`, [match.value]);
        const removed = await countPerson(c, match);
        const leads = `SELECT id FROM leads WHERE ${personColumn(match)} = $1`;
        await c.query(`DELETE FROM idempotency_keys WHERE lead_id IN (${leads})`, [match.value]);
        await c.query(`DELETE FROM lead_fingerprints WHERE lead_id IN (${leads})`, [match.value]);
        await c.query(`DELETE FROM leads WHERE ${personColumn(match)} = $1`, [match.value]);
        await c.query('INSERT INTO deletion_records (identifier_kind, deleted_at, lead_count) VALUES ($1, $2, $3)', [record.kind, record.deletedAt, removed.leads]);
        return removed;
      }),
    deletionRecords: async () => {
      const { rows } = await pool.query<{ identifier_kind: DeletionRecord['kind']; deleted_at: Date; lead_count: number }>(
        'SELECT identifier_kind, deleted_at, lead_count FROM deletion_records ORDER BY deleted_at, id',
      ).catch(unavailable);
      return rows.map((r) => ({ kind: r.identifier_kind, deletedAt: r.deleted_at, leads: r.lead_count }));
    },
    purgeStep: async (step) => {
      // SKIP LOCKED: instances purging at once take different rows. Two short transactions: the first
      // only skips what others hold and so never waits; the second may wait for a first one, which
      // waits for nothing, so no cycle (one transaction doing both deadlocked with four openings).
      const changes = (c: pg.PoolClient) => async (sql: string, params: unknown[]) => (await c.query(sql, params)).rowCount ?? 0;
      const expired = (table: string, column: string, key = 'id') => `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${column} < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`;
      const dayOld = await transaction(async (c) => {
        const run = changes(c);
        const idempotencyKeys = await run(expired('idempotency_keys', 'created_at', 'key'), [step.replayBefore, step.limit]);
        const fingerprints = await run(expired('lead_fingerprints', 'received_at', 'fingerprint'), [step.replayBefore, step.limit]);
        await run("UPDATE leads SET fingerprint = '' WHERE id IN (SELECT id FROM leads WHERE received_at < $1 AND fingerprint <> '' LIMIT $2 FOR UPDATE SKIP LOCKED)", [step.replayBefore, step.limit]);
        const deletionRecords = await run(expired('deletion_records', 'deleted_at'), [step.deletionRecordsBefore, step.limit]);
        return { idempotencyKeys, fingerprints, deletionRecords };
      });
      const pastRetention = await transaction(async (c) => {
        const run = changes(c);
        const { rows } = await c.query<{ id: string }>('SELECT id FROM leads WHERE received_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED', [step.leadsBefore, step.limit]);
        const ids = rows.map((r) => r.id);
        const idempotencyKeys = await run('DELETE FROM idempotency_keys WHERE lead_id = ANY($1)', [ids]);
        const fingerprints = await run('DELETE FROM lead_fingerprints WHERE lead_id = ANY($1)', [ids]);
        const leads = await run('DELETE FROM leads WHERE id = ANY($1)', [ids]);
        return { leads, idempotencyKeys, fingerprints };
      });
      return {
        leads: pastRetention.leads,
        idempotencyKeys: dayOld.idempotencyKeys + pastRetention.idempotencyKeys,
        fingerprints: dayOld.fingerprints + pastRetention.fingerprints,
        deletionRecords: dayOld.deletionRecords,
      };
    },
    claimNotifications: async (claim) => {
      // One statement: the due rows are locked, skipped by any other instance's claim, and claimed.
      const { rows } = await pool.query<LeadRow & { attempts: number }>(
        `WITH due AS (
           SELECT lead_id FROM outbox WHERE sent_at IS NULL AND next_attempt_at <= $3 AND (claimed_until IS NULL OR claimed_until <= $3)
           ORDER BY next_attempt_at LIMIT $4 FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE outbox SET claimed_by = $1, claimed_until = $2 FROM due WHERE outbox.lead_id = due.lead_id RETURNING outbox.lead_id, outbox.attempts
         )
         SELECT leads.*, claimed.attempts, disclosures.text AS disclosure_text FROM claimed
         JOIN leads ON leads.id = claimed.lead_id
         LEFT JOIN disclosures ON disclosures.version = leads.consent->>'disclosureVersion'
         ORDER BY leads.received_at`,
        [claim.owner, claim.until, claim.now, claim.limit],
      ).catch(unavailable);
      return rows.map((row) => ({ lead: rowToLead(row), attempts: row.attempts }));
    },
    notificationSent: async (leadId, at) => {
      await pool.query(
        'UPDATE outbox SET sent_at = $1, attempts = attempts + 1, claimed_by = NULL, claimed_until = NULL, last_error = NULL WHERE lead_id = $2 AND sent_at IS NULL',
        [at, leadId],
      ).catch(unavailable);
    },
    notificationFailed: async (leadId, owner, retry) => {
      await pool.query(
        `UPDATE outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2, claimed_by = NULL, claimed_until = NULL
         WHERE lead_id = $3 AND claimed_by = $4 AND sent_at IS NULL`,
        [retry.at, retry.error, leadId, owner],
      ).catch(unavailable);
    },
    outboxStatus: async () => {
      const { rows } = await pool.query<{ waiting: string; failing: string; oldest: Date | null }>(
        'SELECT count(*) AS waiting, count(*) FILTER (WHERE attempts > 0) AS failing, min(created_at) AS oldest FROM outbox WHERE sent_at IS NULL',
      ).catch(unavailable);
      const row = rows[0]!;
      return { waiting: Number(row.waiting), failing: Number(row.failing), oldestWaiting: row.oldest ?? undefined };
    },
    waitingNotifications: async (limit) => {
      const { rows } = await pool.query<{ lead_id: string; form_type: OutboxEntry['formType']; received_at: Date; attempts: number; next_attempt_at: Date; last_error: string | null }>(
        `SELECT outbox.lead_id, leads.form_type, leads.received_at, outbox.attempts, outbox.next_attempt_at, outbox.last_error
         FROM outbox JOIN leads ON leads.id = outbox.lead_id WHERE outbox.sent_at IS NULL ORDER BY outbox.created_at, outbox.lead_id LIMIT $1`,
        [limit],
      ).catch(unavailable);
      return rows.map((r): OutboxEntry => ({ leadId: r.lead_id, formType: r.form_type, receivedAt: r.received_at, attempts: r.attempts, nextAttemptAt: r.next_attempt_at, lastError: r.last_error }));
    },
    secret: async (name) => {
      await pool.query('INSERT INTO secrets (name, value, created_at) VALUES ($1, $2, now()) ON CONFLICT (name) DO NOTHING', [name, randomBytes(32)]).catch(unavailable);
      const { rows } = await pool.query<{ value: Buffer }>('SELECT value FROM secrets WHERE name = $1', [name]).catch(unavailable);
      return rows[0]!.value;
    },
    announcedAt: async (name, value) => {
      const { rows } = await pool.query<{ first_seen_at: Date }>('SELECT first_seen_at FROM announcements WHERE name = $1 AND value = $2', [name, value]).catch(unavailable);
      return rows[0]?.first_seen_at;
    },
    recordAnnouncement: async (name, value, at) => {
      await pool.query(
        `INSERT INTO announcements (name, value, first_seen_at) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, first_seen_at = excluded.first_seen_at WHERE announcements.value <> excluded.value`,
        [name, value, at],
      ).catch(unavailable);
    },
    close: () => pool.end(),
  };
}
