/**
 * The SQLite store's overview of the inbox: how many leads a view selects, how many have each
 * status (kept by the database as leads come, change and go: migration 15), and how many came in
 * each week by form and service (read from `leads_by_week`, migration 14), never the leads' rows,
 * except where a filter needs them, and the promise chart, which reads the twelve weeks' rows.
 */
import { LEAD_STATUSES, type LeadStatus, type OfficeOverview, type StatusCounts, type WeekCount } from '../../office/store.ts';
import type { SqliteHandle } from './handle.ts';
import { inboxWhere } from './inbox-query.ts';

type WeekRow = { week: number; form_type: WeekCount['form']; service: string | null; n: number };
type PromiseRow = { week: number; received: number; due: number; first: number | null };

/** The overview on `handle`. */
export function sqliteOverview(handle: SqliteHandle): OfficeOverview {
  const { db, guard } = handle;
  const iso = (d: Date) => d.toISOString();
  return {
    inboxCount: (query) =>
      guard(() => {
        const params: Array<string | number> = [];
        const where = inboxWhere(query, params);
        return Number((db.prepare(`SELECT count(*) AS n FROM leads ${where}`).get(...params) as { n: number }).n);
      }),
    statusCounts: (since, now) =>
      guard(() => {
        const counts: StatusCounts = { ...(Object.fromEntries(LEAD_STATUSES.map((s) => [s, 0])) as Record<LeadStatus, number>), since: 0, late: 0 };
        // The totals as the database keeps them (migration 15); today's leads from the index of receipt, a day's worth.
        for (const r of db.prepare('SELECT status, n FROM lead_status_counts').all() as Array<{ status: LeadStatus; n: number }>)
          counts[r.status] = Number(r.n);
        counts.since = Number(
          (db.prepare('SELECT count(*) AS n FROM leads INDEXED BY leads_by_receipt WHERE received_at >= ?').get(iso(since)) as { n: number }).n,
        );
        // The late ones, from the waiting leads' own index: those past their answer-by.
        const late = "SELECT count(*) AS n FROM leads INDEXED BY leads_waiting WHERE status = 'new' AND answer_by < ?";
        counts.late = Number((db.prepare(late).get(iso(now)) as { n: number }).n);
        return counts;
      }),
    leadsPerWeek: (weeks, services) =>
      guard(() => {
        if (weeks.length < 2) return [];
        // The week of each lead, from the boundaries the office's clock drew.
        const week = `CASE ${weeks
          .slice(1)
          .map((_, i) => `WHEN received_at < ? THEN ${i}`)
          .join(' ')} END`;
        // The weeks' leads are read from the index alone, each with its week (`LIMIT -1` keeps that read apart, where the index
        // covers the service), then grouped: 4.5 ms for 12,000 leads, against 6.7 ms with the week worked out in the grouping.
        const sql =
          `SELECT week, form_type, CASE WHEN form_type = 'quote' AND service IN (${services.map(() => '?').join(', ')}) ` +
          `THEN service END AS service, count(*) AS n FROM (SELECT ${week} AS week, form_type, json_extract(fields, '$.service') AS service ` +
          'FROM leads INDEXED BY leads_by_week WHERE received_at >= ? AND received_at < ? LIMIT -1) GROUP BY 1, 2, 3';
        const rows = db.prepare(sql).all(...services, ...weeks.slice(1).map(iso), iso(weeks[0]!), iso(weeks.at(-1)!)) as WeekRow[];
        return rows.map((r) => ({ week: Number(r.week), form: r.form_type, service: r.service ?? undefined, count: Number(r.n) }));
      }),
    promiseLeads: (weeks, now) =>
      guard(() => {
        if (weeks.length < 2) return [];
        const week = `CASE ${weeks
          .slice(1)
          .map((_, i) => `WHEN received_at < ? THEN ${i}`)
          .join(' ')} END`;
        // The weeks' leads from the index of receipt, then their rows; the times as milliseconds, which
        // cost less to make Dates of than the text (at 100,000 leads, 11,000 rows: 20 ms against 23).
        const ms = (column: string) => `CAST(round(unixepoch(${column}, 'subsec') * 1000) AS INTEGER)`;
        const sql =
          `SELECT ${week} AS week, ${ms('received_at')} AS received, ${ms('answer_by')} AS due, ${ms('first_contact_at')} AS first ` +
          'FROM leads INDEXED BY leads_by_receipt WHERE received_at >= ? AND received_at < ? AND answer_by IS NOT NULL ' +
          "AND (first_contact_at IS NOT NULL OR (status = 'new' AND answer_by < ?))";
        const rows = db.prepare(sql).all(...weeks.slice(1).map(iso), iso(weeks[0]!), iso(weeks.at(-1)!), iso(now)) as PromiseRow[];
        return rows.map((r) => ({
          week: Number(r.week),
          receivedAt: new Date(Number(r.received)),
          answerBy: new Date(Number(r.due)),
          ...(r.first !== null && { firstContactAt: new Date(Number(r.first)) }),
        }));
      }),
    // The first `upTo` entries of the index of receipt (migration 7), never the rows: a few microseconds, however many a flood left.
    spamWaiting: (upTo) =>
      guard(() =>
        Number((db.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM suspected_spam INDEXED BY suspected_spam_by_time LIMIT ?)').get(upTo) as { n: number }).n),
      ),
  };
}
