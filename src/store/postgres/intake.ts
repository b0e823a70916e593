/**
 * The PostgreSQL store taking in leads: the idempotency key and the duplicate fingerprint are
 * unique keys written in the lead's own transaction (with its notification to the office, when
 * the office is told), so that concurrent requests on several instances cannot both win; the
 * answer of a lost race is read from the row that won.
 */
import type { PoolClient } from 'pg';
import { receiptOf, type LeadRecord, type Receipt } from '../../leads/lead.ts';
import { newReference } from '../../leads/reference.ts';
import { zip5 } from '../../leads/service-area.ts';
import { leadSearchFacts, searchText } from '../../office/search.ts';
import { answerToKeep, REPLAY_WINDOW_MS, storedAnswer, type IdempotencyClaim, type LeadIntake, type SubmitOutcome } from '../../leads/store.ts';
import type { PostgresHandle } from './handle.ts';

/**
 * A conflicting claim that is still fresh makes the transaction roll back (nothing stored); the
 * answer is then read from the row that won.
 */
export class Lost extends Error {}

/** How the PostgreSQL store is opened. */
export interface PostgresStoreOptions {
  /** Write each new lead's notification to the office into the outbox, in the lead's transaction. */
  outbox?: boolean;
  /**
   * `false` for tests whose subject is not durability: COMMIT answers before PostgreSQL's log is on
   * disk (`synchronous_commit` off on this pool's connections alone). The service never sets it: a
   * receipt must mean the lead is on disk.
   */
  durableCommits?: boolean;
  /** How long a transaction waits for one of the pool's connections before the store is unavailable (3 s: a customer's wait). */
  connectionTimeoutMs?: number;
}

/**
 * One lead's writes inside a transaction the caller holds: the lead (drawing a new reference on a
 * clash), its disclosure, its idempotency key and its fingerprint, each claim won or `Lost` thrown,
 * and its notification. What the office's release from spam shares with the intake.
 */
export type TakeInTransaction = (c: PoolClient, lead: LeadRecord, claim: IdempotencyClaim | undefined) => Promise<{ kind: 'created'; receipt: Receipt }>;

/** The intake role on `handle`, and `takeIn` (above). */
/** The columns of where the home is, by which the office filters: the 5-digit ZIP code, and whether it was in the area. */
const whereTheHomeIs = (lead: LeadRecord) =>
  [typeof lead.fields.postalCode === 'string' ? zip5(lead.fields.postalCode) : null, lead.inServiceArea === undefined ? null : lead.inServiceArea] as const;

export function postgresIntake(handle: PostgresHandle, options: PostgresStoreOptions): LeadIntake & { takeIn: TakeInTransaction } {
  const { pool, transaction, unavailable } = handle;

  const takeIn: TakeInTransaction = async (c, submitted, claim) => {
    const receivedAt = new Date(submitted.receivedAt);
    const since = new Date(receivedAt.getTime() - REPLAY_WINDOW_MS);
    let lead = submitted;
    // A reference another lead has already: nothing is inserted, and the lead draws a new one.
    const insert = () =>
      c.query(
        `INSERT INTO leads (id, reference, form_type, received_at, received_via, fields, phone_e164, email_normalised, fingerprint, consent,
           postal_code, in_service_area, search_text, answer_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (reference) DO NOTHING`,
        [
          lead.id,
          lead.reference,
          lead.formType,
          receivedAt,
          lead.receivedVia,
          JSON.stringify(lead.fields),
          lead.phoneE164,
          lead.emailNormalised,
          lead.fingerprint,
          JSON.stringify(lead.consent),
          ...whereTheHomeIs(lead),
          searchText(leadSearchFacts(lead)),
          lead.answerBy ?? null,
        ],
      );
    while ((await insert()).rowCount === 0) lead = { ...lead, reference: newReference(lead.formType) };
    const receipt = receiptOf(lead);
    if (lead.disclosure) {
      await c.query('INSERT INTO disclosures (version, text, first_seen_at) VALUES ($1, $2, $3) ON CONFLICT (version) DO NOTHING', [
        lead.disclosure.version,
        lead.disclosure.text,
        receivedAt,
      ]);
    }
    if (claim) {
      const won = await c.query(
        `INSERT INTO idempotency_keys (key, request_hash, lead_id, response, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (key) DO UPDATE SET request_hash = excluded.request_hash, lead_id = excluded.lead_id,
           response = excluded.response, created_at = excluded.created_at
         WHERE idempotency_keys.created_at <= $6`,
        [claim.key, claim.requestHash, lead.id, answerToKeep(receipt, lead), receivedAt, since],
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
    return { kind: 'created', receipt, ...(lead.answerBy && { answerBy: lead.answerBy }) };
  };

  async function submit(lead: LeadRecord, claim: IdempotencyClaim | undefined): Promise<SubmitOutcome> {
    try {
      return await transaction((c) => takeIn(c, lead, claim));
    } catch (err) {
      if (!(err instanceof Lost)) throw err;
      if (err.message === 'key') {
        const row = (
          await pool
            .query<{ request_hash: string; response: Receipt & { answerBy?: string } }>('SELECT request_hash, response FROM idempotency_keys WHERE key = $1', [
              claim!.key,
            ])
            .catch(unavailable)
        ).rows[0]!;
        return row.request_hash === claim!.requestHash ? { kind: 'replayed', ...storedAnswer(row.response) } : { kind: 'key_reused' };
      }
      return { kind: 'duplicate', ...(await duplicateOf(pool, lead.fingerprint).catch(unavailable)) };
    }
  }

  return {
    takeIn,
    submit,
    ping: async () => void (await pool.query('SELECT 1').catch(unavailable)),
  };
}

/** The lead whose fingerprint `fingerprint` is (the one a duplicate repeats). */
export async function duplicateOf(
  c: Pick<PoolClient, 'query'>,
  fingerprint: string,
): Promise<{ leadId: string; reference: string; receivedAt: string; answerBy?: string }> {
  const { rows } = await c.query<{ lead_id: string; reference: string; received_at: Date; answer_by: Date | null }>(
    `SELECT lead_id, leads.reference, leads.received_at, leads.answer_by FROM lead_fingerprints JOIN leads ON leads.id = lead_id
     WHERE lead_fingerprints.fingerprint = $1`,
    [fingerprint],
  );
  const row = rows[0]!;
  return {
    leadId: row.lead_id,
    reference: row.reference,
    receivedAt: row.received_at.toISOString(),
    ...(row.answer_by && { answerBy: row.answer_by.toISOString() }),
  };
}
