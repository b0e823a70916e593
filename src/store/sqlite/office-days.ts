/**
 * The SQLite store's office clock (migration 18, decision 0027): the time zone, opening hours and
 * offered services by which each lead's local day, chart part and working minutes to a first
 * contact are kept as it is written, and the days' tables are counted. The clock is kept in the
 * store (`office_clock`), so that every process on the file writes by the same one; the service
 * gives it the content's at start-up (`keepOfficeClock`), and a change of time zone or services
 * works every lead's day and part out again and counts the days afresh, in one transaction.
 */
import type { LeadRecord } from '../../leads/lead.ts';
import type { CallBackPromise } from '../../leads/next-step.ts';
import { chartPart, clockKey, firstContactMinutes, officeDay, type OfficeClock } from '../../office/figures-clock.ts';
import { firstContactsMeasured } from '../../office/working-clock.ts';
import type { SqliteHandle } from './handle.ts';

/** The clock a store writes by; before the service has given one, UTC days and no working minutes. */
export interface DayClock {
  /** `received_day` and `chart_service` of a lead about to be written. */
  columns(lead: Pick<LeadRecord, 'receivedAt' | 'formType' | 'fields'>): [string, string];
  /** `first_contact_minutes` of a lead received at `receivedAt`, first contacted at `at`. */
  minutes(receivedAt: Date, at: Date): number | null;
  timeZone(): string;
  /** Sets the clock, works out again what it changes and counts the days afresh: how many leads were worked out. */
  keep(clock: OfficeClock): number;
}

type Row = { rowid: number; received_at: string; form_type: string; service: unknown; first_contact_at: string | null };

/** The clock of the store on `handle`, as `office_clock` holds it. */
export function sqliteDayClock({ db, inTransaction }: SqliteHandle): DayClock {
  let stored = db.prepare('SELECT key, promise FROM office_clock WHERE id = 1').get() as { key: string; promise: string } | undefined;
  let promise: CallBackPromise | undefined = stored && JSON.parse(stored.promise);
  let services: readonly string[] = stored ? JSON.parse(stored.key)[1] : [];
  const zone = () => promise?.timeZone ?? 'UTC';
  const columns = (lead: Pick<LeadRecord, 'receivedAt' | 'formType' | 'fields'>): [string, string] => [
    officeDay(new Date(lead.receivedAt), zone()),
    chartPart(services, lead.formType, lead.fields.service),
  ];

  /** Works out `rows` again, then counts every day afresh from the leads. */
  function workOut(rows: Row[]): void {
    const set = db.prepare('UPDATE leads SET received_day = ?, chart_service = ?, first_contact_minutes = ? WHERE rowid = ?');
    const leads = rows.map((r) => ({ receivedAt: new Date(r.received_at), firstContactAt: r.first_contact_at === null ? null : new Date(r.first_contact_at) }));
    const minutes = firstContactsMeasured(leads, promise);
    rows.forEach((r, i) => set.run(officeDay(leads[i]!.receivedAt, zone()), chartPart(services, r.form_type, r.service), minutes[i]!, r.rowid));
    db.exec(`
      DELETE FROM lead_days; DELETE FROM lead_days_waiting; DELETE FROM lead_days_contacted;
      INSERT INTO lead_days (day, form_type, service, n)
        SELECT COALESCE(received_day, substr(received_at, 1, 10)), form_type, COALESCE(chart_service, ''), count(*) FROM leads GROUP BY 1, 2, 3;
      INSERT INTO lead_days_waiting (answer_by, day, contacted, n)
        SELECT answer_by, COALESCE(received_day, substr(received_at, 1, 10)), first_contact_at IS NOT NULL, count(*) FROM leads
        WHERE status = 'new' AND answer_by IS NOT NULL GROUP BY 1, 2, 3;
      INSERT INTO lead_days_contacted (day, late, minutes, n)
        SELECT COALESCE(received_day, substr(received_at, 1, 10)), first_contact_at > answer_by, COALESCE(first_contact_minutes, -1), count(*) FROM leads
        WHERE first_contact_at IS NOT NULL AND answer_by IS NOT NULL GROUP BY 1, 2, 3;
    `);
  }

  return {
    columns,
    minutes: (receivedAt, at) => firstContactMinutes(receivedAt, at, promise),
    timeZone: zone,
    keep(clock) {
      const key = clockKey(clock);
      const changed = stored?.key !== key;
      [promise, services] = [clock.promise, clock.services];
      const select = "SELECT rowid, received_at, form_type, json_extract(fields, '$.service') AS service, first_contact_at FROM leads";
      // Leads written before the clock was kept, or first contacted by hand (not through the store): the index of those alone.
      const loose = changed
        ? []
        : (db
            .prepare(`${select} INDEXED BY leads_unkept WHERE received_day IS NULL OR (first_contact_at IS NOT NULL AND first_contact_minutes IS NULL)`)
            .all() as Row[]);
      const keep = db.prepare(
        'INSERT INTO office_clock (id, key, promise) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET key = excluded.key, promise = excluded.promise',
      );
      return inTransaction(() => {
        const rows = changed ? (db.prepare(select).all() as Row[]) : loose;
        if (changed || rows.length > 0) workOut(rows);
        stored = { key, promise: JSON.stringify(clock.promise) };
        keep.run(stored.key, stored.promise);
        return rows.length;
      });
    },
  };
}
