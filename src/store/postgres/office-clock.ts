/**
 * The PostgreSQL store's office clock (migration 18, decision 0027): the opening hours by which the
 * working minutes to each lead's first contact are measured as it is recorded, kept in the store
 * (`office_clock`) so that every instance measures by the same one. The service gives it the
 * content's at start-up (`keepOfficeClock`), which also measures the first contacts recorded
 * without it. The figures themselves are read from the leads by index: a time zone changes nothing kept.
 */
import type { CallBackPromise } from '../../leads/next-step.ts';
import { clockKey, firstContactMinutes, type OfficeClock } from '../../office/figures-clock.ts';
import { firstContactsMeasured } from '../../office/working-clock.ts';
import type { PostgresHandle } from './handle.ts';

/** The clock of the store on `handle`. */
export interface MinutesClock {
  /** `first_contact_minutes` of a lead received at `receivedAt`, first contacted at `at` (`null` before the clock is known). */
  minutes(receivedAt: Date, at: Date): number | null;
  keep(clock: OfficeClock): Promise<number>;
}

export async function postgresMinutesClock({ pool, transaction, unavailable }: PostgresHandle): Promise<MinutesClock> {
  const stored = await pool.query<{ promise: string }>('SELECT promise FROM office_clock WHERE id = 1').catch(unavailable);
  let promise: CallBackPromise | undefined = stored.rows[0] && JSON.parse(stored.rows[0].promise);
  return {
    minutes: (receivedAt, at) => firstContactMinutes(receivedAt, at, promise),
    keep: (clock) =>
      transaction(async (c) => {
        promise = clock.promise;
        await c.query(
          'INSERT INTO office_clock (id, key, promise) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET key = excluded.key, promise = excluded.promise',
          [clockKey(clock), JSON.stringify(clock.promise)],
        );
        const { rows } = await c.query<{ id: string; received_at: Date; first_contact_at: Date }>(
          'SELECT id, received_at, first_contact_at FROM leads WHERE first_contact_at IS NOT NULL AND first_contact_minutes IS NULL FOR UPDATE',
        );
        if (rows.length > 0)
          await c.query('UPDATE leads SET first_contact_minutes = m.minutes FROM unnest($1::text[], $2::int[]) AS m (id, minutes) WHERE leads.id = m.id', [
            rows.map((r) => r.id),
            firstContactsMeasured(
              rows.map((r) => ({ receivedAt: r.received_at, firstContactAt: r.first_contact_at })),
              promise,
            ),
          ]);
        return rows.length;
      }),
  };
}
