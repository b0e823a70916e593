/**
 * A store filled the honest way, fast: leads validated and stored through the store's own intake,
 * many at once, so that its group commit takes them in large batches (a few seconds for 20,000)
 * rather than one fsync each.
 */
import { toLeadRecord } from '../../src/leads/lead.ts';
import { StoreUnavailableError, type LeadIntake } from '../../src/leads/store.ts';
import { validateLead } from '../../src/leads/validate.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { quote } from './fixtures.ts';

/**
 * Submits `lead`, and again after a pause while the store answers that it is busy (nothing was
 * stored), as a caller told to retry does: on a busy machine a thousand leads sent at once can wait
 * for one of PostgreSQL's pooled connections longer than the pool's connection timeout.
 */
async function submitPatiently(intake: Pick<LeadIntake, 'submit'>, lead: Parameters<LeadIntake['submit']>[0]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await intake.submit(lead, undefined);
    } catch (err) {
      if (!(err instanceof StoreUnavailableError) || attempt === 60) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

/** Submits `count` valid quote requests (each made by `body(i)`, distinct fixtures by default), `batch` at a time; resolves with their references. */
export async function seedLeads(
  intake: Pick<LeadIntake, 'submit'>,
  count: number,
  options: {
    body?: (i: number) => Record<string, unknown>;
    batch?: number;
    receivedAt?: (i: number) => Date;
    answerBy?: (i: number) => Date;
    /** Each lead's reference, where a test needs the same ones on every run (the guides' pictures); drawn as the service draws them unless given. */
    reference?: (i: number) => string;
  } = {},
): Promise<string[]> {
  const { body = () => quote(), batch = 2_000, receivedAt = () => new Date() } = options;
  const references: string[] = [];
  for (let start = 0; start < count; start += batch) {
    const submitted = Array.from({ length: Math.min(batch, count - start) }, (_, k) => {
      const i = start + k;
      const v = validateLead(body(i));
      if (!v.ok) throw new Error(`seed body ${i} is invalid: ${JSON.stringify(v.errors)}`);
      const meta = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.9', userAgent: 'seed', now: receivedAt(i) };
      const promised = options.answerBy?.(i);
      const reference = options.reference?.(i);
      return submitPatiently(intake, { ...toLeadRecord(v.lead, meta), ...(promised && { answerBy: promised.toISOString() }), ...(reference && { reference }) });
    });
    for (const outcome of await Promise.all(submitted)) {
      if (outcome.kind !== 'created') throw new Error(`seed lead not created: ${outcome.kind}`);
      references.push(outcome.receipt.reference);
    }
  }
  return references;
}

/** A new SQLite store file at `path` holding `count` seeded leads (see `seedLeads`), closed again. */
export async function seedSqliteFile(path: string, count: number, options: Parameters<typeof seedLeads>[2] = {}): Promise<string[]> {
  const store = openSqliteStore(path);
  try {
    return await seedLeads(store, count, options);
  } finally {
    await store.close();
  }
}
