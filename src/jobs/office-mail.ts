/**
 * The office's e-mail about each new lead, sent from the outbox by the server process. Each round
 * claims one due notification at a time in the store (so that instances sharing a store never send
 * the same one at once), hands it to the mail server, and marks it sent. A failure puts the
 * notification back with a growing delay and pauses the sender for a while, so that an outage costs
 * one attempt per pause, not one per waiting lead. Submissions never wait for any of it: the outbox
 * row was written with the lead, and this job only reads and updates the outbox.
 *
 * A crash (or a lost store) between the mail server's acceptance and the mark leaves the claim to
 * expire; the notification is then sent again with the same `Message-ID`, which mail clients show
 * once.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { LeadRecord } from '../leads/lead.ts';
import type { Outbox } from '../leads/store.ts';
import type { OfficeMessage } from '../mail/office-message.ts';
import { sendFailure, type Mailer } from '../mail/smtp.ts';
import { repeat, type Repeating } from './repeat.ts';

export interface OfficeMailTiming {
  /** How often an idle sender looks for due notifications. */
  pollMs: number;
  /** The first retry delay; each further failure doubles it, up to `maxRetryMs`. */
  firstRetryMs: number;
  maxRetryMs: number;
  /** The longest one send may take before it is abandoned (and retried). */
  sendTimeoutMs: number;
  /** How long a claim keeps other senders off a notification: longer than any send. */
  leaseMs: number;
  /** How often the log says what is waiting. */
  reportMs: number;
  /** How long `stop()` lets a send in flight finish before abandoning it. */
  stopGraceMs: number;
}

export const OFFICE_MAIL_TIMING: OfficeMailTiming = {
  pollMs: 1_000,
  firstRetryMs: 2_000,
  maxRetryMs: 10 * 60_000,
  sendTimeoutMs: 60_000,
  leaseMs: 2 * 60_000,
  reportMs: 60_000,
  stopGraceMs: 5_000,
};

/** The delay before the next attempt after `failures` failures in a row: 2 s, 4 s, 8 s … at most 10 minutes. */
export function retryDelay(failures: number, timing: Pick<OfficeMailTiming, 'firstRetryMs' | 'maxRetryMs'> = OFFICE_MAIL_TIMING): number {
  return Math.min(timing.firstRetryMs * 2 ** Math.max(0, failures - 1), timing.maxRetryMs);
}

/** `stop()` sends nothing more and resolves when the send in flight (if any) has ended or been abandoned. */
export type OfficeMailJob = Repeating;

export interface OfficeMailDeps {
  store: Outbox;
  logger: Logger;
  mailer: Mailer;
  compose(lead: LeadRecord): OfficeMessage;
}

export function startOfficeMail(deps: OfficeMailDeps, timing: OfficeMailTiming = OFFICE_MAIL_TIMING): OfficeMailJob {
  const { store, logger, mailer, compose } = deps;
  const owner = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const stopping = new AbortController();
  let stopped = false;
  /** Failures in a row, of sending or of the store: the sender's pause grows with them. */
  let failures = 0;

  /** Sends due notifications one by one until none is due; returns how long to wait before the next round. */
  async function round(): Promise<number> {
    while (!stopped) {
      const now = new Date();
      let claimed;
      try {
        claimed = await store.claimNotifications({ owner, now, until: new Date(now.getTime() + timing.leaseMs), limit: 1 });
      } catch (err) {
        failures++;
        logger.error({ err, retryInMs: retryDelay(failures, timing) }, 'office e-mail: the outbox cannot be read; it will be tried again');
        return retryDelay(failures, timing);
      }
      const notification = claimed[0];
      if (!notification) return timing.pollMs;
      const { lead, attempts } = notification;
      try {
        await mailer.send(compose(lead), AbortSignal.any([stopping.signal, AbortSignal.timeout(timing.sendTimeoutMs)]));
      } catch (err) {
        failures++;
        const error = sendFailure(err);
        const retryAt = new Date(Date.now() + retryDelay(attempts + 1, timing));
        // The one line that logs no `{ err }`: a mail server's reply, which Nodemailer puts in the
        // error's message, may quote the subject (the customer's name) or an address. `error` is
        // its summary without them (`sendFailure`), the same the outbox records.
        logger.warn({ leadId: lead.id, attempt: attempts + 1, error, retryAt: retryAt.toISOString() }, 'office e-mail failed; it will be tried again');
        // If this fails too, the claim expires and the notification is tried again all the same.
        await store
          .notificationFailed(lead.id, owner, { at: retryAt, error })
          .catch((e: unknown) => logger.error({ leadId: lead.id, err: e }, 'office e-mail: the failure could not be recorded'));
        return retryDelay(failures, timing);
      }
      failures = 0;
      try {
        await store.notificationSent(lead.id, new Date());
        logger.info({ leadId: lead.id, attempt: attempts + 1 }, 'office e-mail sent');
      } catch (err) {
        failures++;
        logger.error(
          { leadId: lead.id, err, resendAfterMs: timing.leaseMs },
          'office e-mail sent, but not marked as sent: it will be sent again, with the same Message-ID',
        );
        return retryDelay(failures, timing);
      }
    }
    return timing.pollMs;
  }

  // What is waiting, once at start-up and then every `reportMs` while anything is (and once when it all went).
  let lastWaiting = -1;
  async function report(): Promise<void> {
    try {
      const status = await store.outboxStatus();
      if (status.waiting > 0 || lastWaiting !== 0) {
        const oldestWaitingSeconds = status.oldestWaiting ? Math.round((Date.now() - status.oldestWaiting.getTime()) / 1000) : undefined;
        logger.info({ waiting: status.waiting, failing: status.failing, oldestWaitingSeconds }, 'office e-mail outbox');
      }
      lastWaiting = status.waiting;
    } catch (err) {
      logger.error({ err }, 'office e-mail: the outbox cannot be read');
    }
  }
  void report();
  const reporter = setInterval(() => void report(), timing.reportMs);
  reporter.unref();

  const sender = repeat(round, (err) => {
    logger.error({ err }, 'office e-mail: unexpected failure of the sender');
    return retryDelay(++failures, timing);
  });
  return {
    async stop() {
      stopped = true;
      clearInterval(reporter);
      const grace = setTimeout(() => stopping.abort(new Error('the server is stopping')), timing.stopGraceMs);
      await sender.stop();
      clearTimeout(grace);
      mailer.close();
    },
  };
}
