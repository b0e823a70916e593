/**
 * The SQLite store taking in leads: each submission's idempotency key, duplicate check and insert
 * (with its notification to the office, when the office is told) in one transaction; submissions
 * that arrive together commit together (group commit: one fsync for all of them).
 */
import { receiptOf, type LeadRecord } from '../../leads/lead.ts';
import { newReference } from '../../leads/reference.ts';
import { zip5 } from '../../leads/service-area.ts';
import { leadSearchFacts, searchText } from '../../office/search.ts';
import { answerToKeep, REPLAY_WINDOW_MS, storedAnswer, type IdempotencyClaim, type LeadIntake, type SubmitOutcome } from '../../leads/store.ts';
import type { SqliteHandle, StoreLog } from './handle.ts';
import type { DayClock } from './office-days.ts';

/** How the SQLite store commits. */
export interface SqliteStoreOptions {
  /** Commit submissions that arrive together in one transaction (one fsync); on by default. */
  groupCommit: boolean;
  /** Write each new lead's notification to the office into the outbox, in the lead's transaction. */
  outbox?: boolean;
  /** Where the store's warnings go (the service's log); a line on standard error by default. */
  log?: StoreLog;
}

interface Pending {
  lead: LeadRecord;
  claim: IdempotencyClaim | undefined;
  resolve(outcome: SubmitOutcome): void;
  reject(err: unknown): void;
}

/** A lead taken in inside a transaction already open: what the office's release from spam shares with the intake. */
export type TakeInTransaction = (lead: LeadRecord, claim: IdempotencyClaim | undefined) => SubmitOutcome;

/**
 * The intake role on `handle`; `flush`, which commits what waits for its batch (before closing); and
 * `takeIn`, one submission's checks and writes inside a transaction the caller holds.
 */
/** The columns of where the home is, by which the office filters: the 5-digit ZIP code, and whether it was in the area. */
const whereTheHomeIs = (lead: LeadRecord) =>
  [
    typeof lead.fields.postalCode === 'string' ? zip5(lead.fields.postalCode) : null,
    lead.inServiceArea === undefined ? null : Number(lead.inServiceArea),
  ] as const;

export function sqliteIntake(handle: SqliteHandle, options: SqliteStoreOptions, clock: DayClock): LeadIntake & { flush(): void; takeIn: TakeInTransaction } {
  const { db, storeError, guard } = handle;
  const findKey = db.prepare('SELECT request_hash, response, created_at FROM idempotency_keys WHERE key = ?');
  const findDuplicate = db.prepare(
    'SELECT id, reference, received_at, answer_by FROM leads WHERE fingerprint = ? AND received_at > ? ORDER BY received_at LIMIT 1',
  );
  // A reference another lead has already: nothing is inserted, and the lead draws a new one.
  const insertLead = db.prepare(
    `INSERT INTO leads (id, reference, form_type, received_at, received_via, fields, phone_e164, email_normalised, fingerprint, consent,
       postal_code, in_service_area, search_text, answer_by, received_day, chart_service)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (reference) DO NOTHING`,
  );
  const saveKey = db.prepare(
    `INSERT INTO idempotency_keys (key, request_hash, lead_id, response, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET request_hash = excluded.request_hash, lead_id = excluded.lead_id,
       response = excluded.response, created_at = excluded.created_at`,
  );
  const insertNotification = db.prepare('INSERT INTO outbox (lead_id, created_at, next_attempt_at) VALUES (?, ?, ?)');
  const insertDisclosure = db.prepare('INSERT INTO disclosures (version, text, first_seen_at) VALUES (?, ?, ?) ON CONFLICT (version) DO NOTHING');
  const selectOne = db.prepare('SELECT 1');

  // The batch's transaction statements, compiled once (as text, each would be parsed per lead).
  const tx = {
    begin: db.prepare('BEGIN IMMEDIATE'),
    savepoint: db.prepare('SAVEPOINT lead'),
    release: db.prepare('RELEASE lead'),
    rollbackTo: db.prepare('ROLLBACK TO lead'),
    commit: db.prepare('COMMIT'),
  };

  /** One submission inside an open transaction: idempotency key, then duplicates, then insert. */
  function submitInTransaction(submitted: LeadRecord, claim: IdempotencyClaim | undefined): SubmitOutcome {
    let lead = submitted;
    const since = new Date(Date.parse(lead.receivedAt) - REPLAY_WINDOW_MS).toISOString();
    if (claim) {
      const row = findKey.get(claim.key) as { request_hash: string; response: string; created_at: string } | undefined;
      if (row && row.created_at > since) {
        return row.request_hash === claim.requestHash ? { kind: 'replayed', ...storedAnswer(row.response) } : { kind: 'key_reused' };
      }
    }
    const duplicate = findDuplicate.get(lead.fingerprint, since) as
      { id: string; reference: string; received_at: string; answer_by: string | null } | undefined;
    if (duplicate)
      return {
        kind: 'duplicate',
        leadId: duplicate.id,
        reference: duplicate.reference,
        receivedAt: duplicate.received_at,
        ...(duplicate.answer_by && { answerBy: duplicate.answer_by }),
      };
    const fields = JSON.stringify(lead.fields);
    const consent = JSON.stringify(lead.consent);
    const insert = () =>
      insertLead.run(
        lead.id,
        lead.reference,
        lead.formType,
        lead.receivedAt,
        lead.receivedVia,
        fields,
        lead.phoneE164,
        lead.emailNormalised,
        lead.fingerprint,
        consent,
        ...whereTheHomeIs(lead),
        searchText(leadSearchFacts(lead)),
        lead.answerBy ?? null,
        ...clock.columns(lead),
      );
    while (Number(insert().changes) === 0) lead = { ...lead, reference: newReference(lead.formType) };
    if (lead.disclosure) insertDisclosure.run(lead.disclosure.version, lead.disclosure.text, lead.receivedAt);
    if (options.outbox) insertNotification.run(lead.id, lead.receivedAt, lead.receivedAt);
    const receipt = receiptOf(lead);
    if (claim) saveKey.run(claim.key, claim.requestHash, lead.id, answerToKeep(receipt, lead), lead.receivedAt);
    return { kind: 'created', receipt, ...(lead.answerBy && { answerBy: lead.answerBy }) };
  }

  let pending: Pending[] = [];

  /**
   * Commits a batch of submissions in one transaction: one fsync for all of them (group commit).
   * node:sqlite is synchronous, so the batch runs to its end before any other request's code, and
   * BEGIN IMMEDIATE takes the write lock first so that another process on the file cannot interleave
   * either. One failure touches no other submission: the batch first runs without savepoints (the
   * usual case, where nothing fails); should one submission fail, the whole is rolled back and run
   * again with a savepoint for each. Every promise is settled only after COMMIT has returned, so no
   * receipt precedes its commit.
   */
  function commitBatch(batch: Pending[], savepoints = false): void {
    const outcomes: Array<{ ok: SubmitOutcome } | { err: unknown }> = [];
    let phase: 'transaction' | 'commit' = 'transaction';
    try {
      tx.begin.run();
      for (const item of batch) {
        if (!savepoints) {
          try {
            outcomes.push({ ok: submitInTransaction(item.lead, item.claim) });
          } catch (err) {
            // Alone, its failure is the batch's; among others, they are run again, each on its own.
            if (batch.length === 1 || !db.isTransaction) throw err;
            db.exec('ROLLBACK');
            return commitBatch(batch, true);
          }
          continue;
        }
        tx.savepoint.run();
        try {
          outcomes.push({ ok: submitInTransaction(item.lead, item.claim) });
          tx.release.run();
        } catch (err) {
          // SQLite itself rolled the whole transaction back (a full disk, an I/O error): the batch
          // fails with that error, not with the savepoint's absence.
          if (!db.isTransaction) throw err;
          tx.rollbackTo.run();
          tx.release.run();
          outcomes.push({ err });
        }
      }
      phase = 'commit';
      tx.commit.run();
    } catch (err) {
      try {
        if (db.isOpen && db.isTransaction) db.exec('ROLLBACK');
      } catch {
        // The transaction is gone with the connection; the batch is refused below either way.
      }
      for (const item of batch) item.reject(storeError(err, phase));
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!;
      if ('ok' in outcome) item.resolve(outcome.ok);
      else item.reject(storeError(outcome.err));
    });
  }

  function flush(): void {
    const batch = pending;
    pending = [];
    if (batch.length > 0) commitBatch(batch);
  }

  return {
    takeIn: submitInTransaction,
    submit(lead, claim) {
      return new Promise((resolve, reject) => {
        const item = { lead, claim, resolve, reject };
        if (!options.groupCommit) return commitBatch([item]);
        // Submissions that arrive in the same turn of the event loop share one commit.
        pending.push(item);
        if (pending.length === 1) setImmediate(flush);
      });
    },
    ping: () => guard(() => void selectOne.get()),
    flush,
  };
}
