/** The server's background jobs run by this: a task, again and again, each run saying when the next is due. */

export interface Repeating {
  /** Schedules no more runs; resolves when the run under way (if any) has ended. */
  stop(): Promise<void>;
}

/**
 * Runs `task` after `firstDelayMs`, then again after the number of milliseconds each run resolves
 * to; a run that fails is handed to `failed`, which says when to try again. Timers never keep the
 * process alive.
 */
export function repeat(task: () => Promise<number>, failed: (err: unknown) => number, firstDelayMs = 0): Repeating {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = task().then(schedule, (err: unknown) => schedule(failed(err)));
    }, ms);
    timer.unref();
  };
  schedule(firstDelayMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
