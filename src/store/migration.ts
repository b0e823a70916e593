/**
 * Versioned schema migrations, a list per store (`sqlite/migrations.ts`, `postgres/migrations.ts`),
 * and what both share. Append only: a published migration never changes.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * SQLite: once committed, rebuild the file (`VACUUM`, which cannot run in a transaction), so that
   * no byte of a row deleted before `secure_delete` was on is left in a free page.
   */
  vacuum?: true;
}

/**
 * Migration 6, the same on both stores: every lead gets a short reference (`src/leads/reference.ts`).
 * Leads stored before it are numbered in the order they came, written in the references' alphabet
 * (as it was then: a published migration never changes), so that no two can share one; new leads
 * get random ones, and the unique index makes the store draw again on a clash.
 */
export const REFERENCES = `
  ALTER TABLE leads ADD COLUMN reference TEXT;
  WITH numbered AS (
    SELECT id, CASE form_type WHEN 'quote' THEN 'Q-' ELSE 'C-' END AS prefix, CAST(row_number() OVER (ORDER BY received_at, id) AS INTEGER) AS n FROM leads
  )
  UPDATE leads SET reference = numbered.prefix
    || substr('346789ABCDEFGHJKMNPQRTWXY', (numbered.n / 9765625) % 25 + 1, 1)
    || substr('346789ABCDEFGHJKMNPQRTWXY', (numbered.n / 390625) % 25 + 1, 1)
    || substr('346789ABCDEFGHJKMNPQRTWXY', (numbered.n / 15625) % 25 + 1, 1)
    || substr('346789ABCDEFGHJKMNPQRTWXY', (numbered.n / 625) % 25 + 1, 1) || '-'
    || substr('346789ABCDEFGHJKMNPQRTWXY', (numbered.n / 25) % 25 + 1, 1)
    || substr('346789ABCDEFGHJKMNPQRTWXY', numbered.n % 25 + 1, 1)
  FROM numbered WHERE leads.id = numbered.id;
  CREATE UNIQUE INDEX leads_by_reference ON leads (reference);
`;
