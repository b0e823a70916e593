/**
 * The SQLite store's overview of the inbox: how many leads a view selects, how many have each
 * status (kept by the database as leads come, change and go: migration 15), and how many came in
 * each week by form and service, and how the promise was kept, from the counts the database keeps
 * per local day (migration 18, decision 0027): a few dozen rows, however many leads the weeks hold.
 */
import { DAY_MS } from '../../lib/time.ts';
import { officeDay } from '../../office/figures-clock.ts';
import { startOfLocalDay } from '../../office/local-time.ts';
import { LEAD_STATUSES, type LeadStatus, type OfficeOverview, type PromiseCount, type StatusCounts, type WeekCount } from '../../office/store.ts';
import type { DayClock } from './office-days.ts';
import type { SqliteHandle } from './handle.ts';
import { inboxWhere } from './inbox-query.ts';

type WeekRow = { week: number; form_type: WeekCount['form']; service: string; n: number };
type PromiseRow = { week: number; outcome: PromiseCount['outcome']; minutes: number; n: number };

/** The local midnight that begins the day `days` after `day` (`YYYY-MM-DD`) in `timeZone`. */
const midnight = (day: string, timeZone: string, days = 0) => {
  const date = new Date(Date.parse(`${day}T12:00:00Z`) + days * DAY_MS);
  return startOfLocalDay(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), timeZone);
};

/** The overview on `handle`, its days drawn by `clock`. */
export function sqliteOverview(handle: SqliteHandle, clock: DayClock): OfficeOverview {
  const { db, guard } = handle;
  const iso = (d: Date) => d.toISOString();
  /** The local days the weeks begin on (each a local midnight), and the week of a day as SQL with them. */
  const days = (weeks: readonly Date[]) => {
    const starts = weeks.map((w) => officeDay(w, clock.timeZone()));
    return {
      starts,
      week: `CASE ${starts
        .slice(1)
        .map((_, i) => `WHEN day < ? THEN ${i}`)
        .join(' ')} END`,
      bounds: starts.slice(1),
    };
  };
  return {
    inboxCount: (query) =>
      guard(() => {
        // The whole inbox, the waiting leads or one status: the counts the database keeps (migration 15), whatever their number.
        const asked = Object.entries(query).filter(([, value]) => value !== undefined && value !== false);
        const only = asked.length === 1 ? asked[0]![0] : asked.length === 0 ? 'all' : undefined;
        if (only === 'all' || only === 'urgent' || only === 'status') {
          const status = only === 'urgent' ? 'new' : only === 'status' ? query.status! : undefined;
          const sql = `SELECT sum(n) AS n FROM lead_status_counts${status ? ' WHERE status = ?' : ''}`;
          return Number((db.prepare(sql).get(...(status ? [status] : [])) as { n: number | null }).n ?? 0);
        }
        const params: Array<string | number> = [];
        const where = inboxWhere(query, params);
        return Number((db.prepare(`SELECT count(*) AS n FROM leads ${where}`).get(...params) as { n: number }).n);
      }),
    statusCounts: (since, now) =>
      guard(() => {
        const counts: StatusCounts = { ...(Object.fromEntries(LEAD_STATUSES.map((s) => [s, 0])) as Record<LeadStatus, number>), since: 0, late: 0 };
        // The totals as the database keeps them (migration 15).
        for (const r of db.prepare('SELECT status, n FROM lead_status_counts').all() as Array<{ status: LeadStatus; n: number }>)
          counts[r.status] = Number(r.n);
        // From a local midnight (today's start, as the page asks), the days' counts; from any other moment, the rest
        // of its day from the index of receipt as well.
        const [zone, day] = [clock.timeZone(), officeDay(since, clock.timeZone())];
        const sum = (sql: string, ...params: string[]) => Number((db.prepare(sql).get(...params) as { n: number | null }).n ?? 0);
        counts.since =
          midnight(day, zone).getTime() === since.getTime()
            ? sum('SELECT sum(n) AS n FROM lead_days WHERE day >= ?', day)
            : sum('SELECT sum(n) AS n FROM lead_days WHERE day > ?', day) +
              sum(
                'SELECT count(*) AS n FROM leads INDEXED BY leads_by_receipt WHERE received_at >= ? AND received_at < ?',
                iso(since),
                iso(midnight(day, zone, 1)),
              );
        // The late ones: the waiting leads by answer-by, counted as they come and go (migration 18).
        counts.late = sum('SELECT sum(n) AS n FROM lead_days_waiting WHERE answer_by < ?', iso(now));
        return counts;
      }),
    leadsPerWeek: (weeks, services) =>
      guard(() => {
        if (weeks.length < 2) return [];
        // The days' counts (migration 18): a row per day, form and service, however many leads the weeks hold.
        const { starts, week, bounds } = days(weeks);
        const sql = `SELECT ${week} AS week, form_type, service, sum(n) AS n FROM lead_days WHERE day >= ? AND day < ? GROUP BY 1, 2, 3`;
        const rows = db.prepare(sql).all(...bounds, starts[0]!, starts.at(-1)!) as WeekRow[];
        return rows
          .filter((r) => Number(r.n) > 0)
          .map((r) => ({ week: Number(r.week), form: r.form_type, service: services.includes(r.service) ? r.service : undefined, count: Number(r.n) }));
      }),
    promiseCounts: (weeks, now) =>
      guard(() => {
        if (weeks.length < 2) return [];
        // First contacts by day, outcome and working minutes, and the waiting by answer-by (migration 18).
        const { starts, week, bounds } = days(weeks);
        const sql =
          `SELECT ${week} AS week, CASE late WHEN 1 THEN 'late' ELSE 'in time' END AS outcome, minutes, sum(n) AS n ` +
          'FROM lead_days_contacted WHERE day >= ? AND day < ? GROUP BY 1, 2, 3 UNION ALL ' +
          `SELECT ${week} AS week, 'waiting' AS outcome, -1 AS minutes, sum(n) AS n ` +
          'FROM lead_days_waiting WHERE answer_by < ? AND contacted = 0 AND day >= ? AND day < ? GROUP BY 1';
        const range = [starts[0]!, starts.at(-1)!];
        const rows = db.prepare(sql).all(...bounds, ...range, ...bounds, iso(now), ...range) as PromiseRow[];
        return rows
          .filter((r) => Number(r.n) > 0)
          .map((r) => ({
            week: Number(r.week),
            outcome: r.outcome,
            ...(r.outcome !== 'waiting' && Number(r.minutes) >= 0 && { minutes: Number(r.minutes) }),
            count: Number(r.n),
          }));
      }),
    // The waiting leads' counts by answer-by (migration 18), a range of its key each; the last group is the rest of the waiting.
    waitingCounts: (bounds) =>
      guard(() => {
        const sum = (sql: string, ...params: string[]) => Number((db.prepare(sql).get(...params) as { n: number | null }).n ?? 0);
        const edges = bounds.map(iso);
        const counts = edges.map((edge, i) =>
          i === 0
            ? sum('SELECT sum(n) AS n FROM lead_days_waiting WHERE answer_by < ?', edge)
            : sum('SELECT sum(n) AS n FROM lead_days_waiting WHERE answer_by >= ? AND answer_by < ?', edges[i - 1]!, edge),
        );
        const waiting = sum("SELECT sum(n) AS n FROM lead_status_counts WHERE status = 'new'");
        return [...counts, Math.max(0, waiting - counts.reduce((a, b) => a + b, 0))];
      }),
    // The first `upTo` entries of the index of those not marked "not a customer" (migration 21), never the rows: a few microseconds, however many a flood left.
    spamWaiting: (upTo) =>
      guard(() =>
        Number(
          (
            db
              .prepare('SELECT count(*) AS n FROM (SELECT 1 FROM suspected_spam INDEXED BY suspected_spam_waiting WHERE dismissed_at IS NULL LIMIT ?)')
              .get(upTo) as { n: number }
          ).n,
        ),
      ),
    // Each account's figures, each a range of an index that holds only what it counts (migration 22): never the leads' rows.
    teamLoad: (since, now) =>
      guard(() =>
        (
          db
            .prepare(
              `SELECT u.id, u.email,
                 (SELECT count(*) FROM leads INDEXED BY leads_held_waiting WHERE owner = u.email AND status = 'new') AS waiting,
                 (SELECT count(*) FROM leads INDEXED BY leads_held_waiting WHERE owner = u.email AND status = 'new' AND answer_by < ?) AS late,
                 (SELECT count(*) FROM leads INDEXED BY leads_first_contacts WHERE first_contact_at >= ? AND first_contact_by = u.email) AS first
               FROM office_users AS u ORDER BY u.email`,
            )
            .all(iso(now), iso(since)) as Array<{ id: string; email: string; waiting: number; late: number; first: number }>
        ).map((r) => ({ id: r.id, email: r.email, waiting: Number(r.waiting), late: Number(r.late), firstContacted: Number(r.first) })),
      ),
  };
}
