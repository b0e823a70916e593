/**
 * Retention that runs by itself: the server purges at start-up and then once a day, in small steps
 * that leave room for submissions between them. A failed purge is logged and tried again an hour
 * later; it never stops the server. Several instances may purge at once (the stores skip rows
 * another one holds).
 */
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { purge, purgeCutoffs } from '../leads/retention.ts';
import type { LeadRecords } from '../leads/store.ts';
import { repeat, type Repeating } from './repeat.ts';
import { DAY_MS } from '../lib/time.ts';

const RETRY_MS = 60 * 60 * 1000;
/** The pause between two purge steps, for submissions to go first. */
const STEP_PAUSE_MS = 5;

export function startPurges(
  deps: { store: Pick<LeadRecords, 'purgeStep'>; config: Pick<Config, 'leadsRetentionDays'>; logger: Logger },
  timing = { intervalMs: DAY_MS, retryMs: RETRY_MS },
): Repeating {
  const { store, config, logger } = deps;
  return repeat(
    async () => {
      const started = Date.now();
      const removed = await purge(store, purgeCutoffs(new Date(), config.leadsRetentionDays), () => new Promise((r) => setTimeout(r, STEP_PAUSE_MS)));
      logger.info({ removed, retentionDays: config.leadsRetentionDays, durationMs: Date.now() - started }, 'retention purge done');
      return timing.intervalMs;
    },
    (err) => {
      logger.error({ err, retryInMs: timing.retryMs }, 'retention purge failed; it will be tried again');
      return timing.retryMs;
    },
  );
}
