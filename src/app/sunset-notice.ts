/** The start-up rule for `LEADS_SUNSET_DATE`: at least 365 days between its announcement and the date (spec section 9). */
import type { Config } from '../config/config.ts';
import type { ServiceKeys } from '../leads/store.ts';
import { SUNSET_NOTICE_DAYS } from '../service-facts.ts';
import { DAY_MS } from '../lib/time.ts';

/**
 * Returns a message refusing the start when the configured sunset gives less than 365 days of
 * notice, counted from the first start that announced this date (remembered by the store, so a
 * restart does not move the start of the notice period).
 */
export async function checkSunsetNotice(
  config: Pick<Config, 'leadsSunsetDate'>,
  store: Pick<ServiceKeys, 'announcedAt' | 'recordAnnouncement'>,
  now: Date,
): Promise<string | undefined> {
  const sunset = config.leadsSunsetDate;
  if (!sunset) return undefined;
  const name = 'leads_sunset_date';
  const announced = (await store.announcedAt(name, sunset.toISOString())) ?? now;
  const noticeDays = (sunset.getTime() - announced.getTime()) / DAY_MS;
  if (noticeDays >= SUNSET_NOTICE_DAYS) {
    // Only a date that is accepted counts as announced: the Sunset header goes out from now on.
    if (announced === now) await store.recordAnnouncement(name, sunset.toISOString(), now);
    return undefined;
  }
  const earliest = new Date(announced.getTime() + SUNSET_NOTICE_DAYS * DAY_MS).toISOString().slice(0, 10);
  return (
    `LEADS_SUNSET_DATE: ${sunset.toISOString()} gives ${Math.floor(Math.max(0, noticeDays))} days of notice from ` +
    `its announcement on ${announced.toISOString().slice(0, 10)}; at least ${SUNSET_NOTICE_DAYS} are required, so ` +
    `the earliest allowed date is ${earliest}.`
  );
}
