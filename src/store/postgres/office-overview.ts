/**
 * The PostgreSQL store's overview of the inbox: how many leads a view selects, how many have each
 * status, and how many came in each week by form and service. Each reads an index of its own
 * (`leads_by_status`, `leads_by_week`: migration 14; index-only once vacuumed), never the leads'
 * rows, except where a filter needs them, and the promise chart, which counts the twelve weeks' rows
 * by outcome and working minutes. Kept per day by SQLite alone (decision 0027): here several instances write at once.
 */
import { LEAD_STATUSES, type LeadStatus, type OfficeOverview, type PromiseCount, type StatusCounts, type WeekCount } from '../../office/store.ts';
import type { PostgresHandle } from './handle.ts';
import { inboxWhere } from './inbox-query.ts';

/** The overview on `handle`. */
export function postgresOverview(handle: PostgresHandle): OfficeOverview {
  const { pool, unavailable } = handle;
  const query = <R extends object>(sql: string, params: unknown[] = []) => pool.query<R>(sql, params).catch(unavailable);
  return {
    inboxCount: async (q) => {
      const params: unknown[] = [];
      const where = inboxWhere(q, (value) => `$${params.push(value)}`);
      return (await query<{ n: number }>(`SELECT count(*)::int AS n FROM leads ${where}`, params)).rows[0]!.n;
    },
    statusCounts: async (since, now) => {
      const counts: StatusCounts = { ...(Object.fromEntries(LEAD_STATUSES.map((s) => [s, 0])) as Record<LeadStatus, number>), since: 0, late: 0 };
      const { rows } = await query<{ status: LeadStatus; n: number; since: number; late: number }>(
        `SELECT status, count(*)::int AS n, (count(*) FILTER (WHERE received_at >= $1))::int AS since,
                (count(*) FILTER (WHERE status = 'new' AND answer_by < $2))::int AS late
         FROM leads GROUP BY status`,
        [since, now],
      );
      for (const r of rows) {
        counts[r.status] = r.n;
        counts.since += r.since;
        counts.late += r.late;
      }
      return counts;
    },
    leadsPerWeek: async (weeks, services) => {
      if (weeks.length < 2) return [];
      // width_bucket: 1 for the first week (from weeks[0] to weeks[1]), and so on.
      const { rows } = await query<{ week: number; form_type: WeekCount['form']; service: string | null; n: number }>(
        `SELECT width_bucket(received_at, $1::timestamptz[]) - 1 AS week, form_type,
                CASE WHEN form_type = 'quote' AND service = ANY($2::text[]) THEN service END AS service, count(*)::int AS n
         FROM leads WHERE received_at >= $3 AND received_at < $4 GROUP BY 1, 2, 3`,
        [weeks, services, weeks[0], weeks.at(-1)],
      );
      return rows.map((r) => ({ week: r.week, form: r.form_type, service: r.service ?? undefined, count: r.n }));
    },
    promiseCounts: async (weeks, now) => {
      if (weeks.length < 2) return [];
      const { rows } = await query<{ week: number; outcome: PromiseCount['outcome']; minutes: number | null; n: number }>(
        `SELECT width_bucket(received_at, $1::timestamptz[]) - 1 AS week,
                CASE WHEN first_contact_at IS NULL THEN 'waiting' WHEN first_contact_at <= answer_by THEN 'in time' ELSE 'late' END AS outcome,
                first_contact_minutes AS minutes, count(*)::int AS n
         FROM leads WHERE received_at >= $2 AND received_at < $3 AND answer_by IS NOT NULL
           AND (first_contact_at IS NOT NULL OR (status = 'new' AND answer_by < $4)) GROUP BY 1, 2, 3`,
        [weeks, weeks[0], weeks.at(-1), now],
      );
      return rows.map((r) => ({ week: r.week, outcome: r.outcome, ...(r.outcome !== 'waiting' && r.minutes !== null && { minutes: r.minutes }), count: r.n }));
    },
    // The index of waiting leads (`leads_waiting`) alone: width_bucket counts 0 before the first bound, and so on.
    waitingCounts: async (bounds) => {
      const counts = Array.from({ length: bounds.length + 1 }, () => 0);
      const { rows } = await query<{ group: number | null; n: number }>(
        `SELECT width_bucket(answer_by, $1::timestamptz[]) AS "group", count(*)::int AS n FROM leads WHERE status = 'new' GROUP BY 1`,
        [bounds],
      );
      for (const r of rows) counts[r.group ?? bounds.length] += r.n;
      return counts;
    },
    // At most `upTo` entries read (of `suspected_spam_waiting`, those not marked "not a customer", or the few rows themselves
    // where the planner finds that cheaper).
    spamWaiting: async (upTo) =>
      (
        await query<{ n: number }>(
          'SELECT count(*)::int AS n FROM (SELECT 1 FROM suspected_spam WHERE dismissed_at IS NULL ORDER BY received_at LIMIT $1) AS waiting',
          [upTo],
        )
      ).rows[0]!.n,
    // Each figure counted once for all, from an index that holds only what it counts (migration 22), then joined to the accounts:
    // not a subquery per account, whose estimate (the accounts never analysed) would have the planner compile it (JIT) each time.
    teamLoad: async (since, now) =>
      (
        await query<{ id: string; email: string; waiting: number; late: number; first: number }>(
          `WITH held AS (
             SELECT owner AS email, count(*)::int AS waiting, (count(*) FILTER (WHERE answer_by < $2))::int AS late
             FROM leads WHERE status = 'new' AND owner IS NOT NULL GROUP BY owner),
           firsts AS (SELECT first_contact_by AS email, count(*)::int AS n FROM leads WHERE first_contact_at >= $1 GROUP BY first_contact_by)
           SELECT u.id, u.email, coalesce(held.waiting, 0) AS waiting, coalesce(held.late, 0) AS late, coalesce(firsts.n, 0) AS first
           FROM office_users AS u LEFT JOIN held ON held.email = u.email LEFT JOIN firsts ON firsts.email = u.email ORDER BY u.email`,
          [since, now],
        )
      ).rows.map((r) => ({ id: r.id, email: r.email, waiting: r.waiting, late: r.late, firstContacted: r.first })),
  };
}
