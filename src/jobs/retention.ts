/**
 * Retention that runs by itself: the server purges at start-up and then once a day, in small steps
 * that leave room for submissions between them. A failed purge is logged and tried again an hour
 * later; it never stops the server. Several instances may purge at once (the stores skip rows
 * another one holds).
 */
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { purge, purgeCutoffs } from '../leads/retention.ts';
import type { LeadStore } from '../leads/store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const RETRY_MS = 60 * 60 * 1000;
/** The pause between two purge steps, for submissions to go first. */
const STEP_PAUSE_MS = 5;

export interface RetentionJob {
  /** Resolves when the purge under way (if any) has ended; schedules no more. */
  stop(): Promise<void>;
}

export function startRetention(deps: { store: LeadStore; config: Pick<Config, 'leadsRetentionDays'>; logger: Logger }, timing = { intervalMs: DAY_MS, retryMs: RETRY_MS }): RetentionJob {
  const { store, config, logger } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(run, ms);
    timer.unref();
  };
  function run(): void {
    const started = Date.now();
    running = purge(store, purgeCutoffs(new Date(), config.leadsRetentionDays), () => new Promise((r) => setTimeout(r, STEP_PAUSE_MS)))
      .then((removed) => {
        logger.info({ removed, retentionDays: config.leadsRetentionDays, durationMs: Date.now() - started }, 'retention purge done');
        schedule(timing.intervalMs);
      })
      .catch((err: unknown) => {
        logger.error({ err: err instanceof Error ? { name: err.name, message: err.message } : String(err), retryInMs: timing.retryMs }, 'retention purge failed; it will be tried again');
        schedule(timing.retryMs);
      });
  }
  schedule(0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
