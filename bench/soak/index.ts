/**
 * `npm run soak`: the project's own crash soak. The built server (as `npm start` runs it, `TRUST_PROXY` set so that
 * each lead comes from a client address of its own) on a fresh store takes leads at 16 in flight through the API and
 * the forms (`traffic.ts`) while the office works through its pages (`office.ts`), and is killed with SIGKILL at random
 * moments and started again on the same store (`crashes.ts`); an answer lost to a kill is asked again with the same key.
 * At the end the store is set against what was acknowledged (`verify.ts`). On SQLite, then on PostgreSQL when it
 * answers on 127.0.0.1:5432 (a schema of its own, dropped after). One line per kill, a summary per store; the exit
 * status is 1 when anything acknowledged was lost or a check failed. Not part of `npm test`.
 *
 *   npm run soak                          3 minutes on each store
 *   npm run soak -- --minutes 10          longer
 *   npm run soak -- --store sqlite        one store only (sqlite or postgresql)
 *   npm run soak -- --seed 7              the same choices of leads, office work and kill intervals again
 *   npm run soak -- --keep                keeps each store (its folder, or its schema) to look at afterwards
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { answerBy } from '../../src/leads/next-step.ts';
import { localDateInput, nextLocalDay, parseLocalDate } from '../../src/office/local-time.ts';
import { addUser } from '../../tests/support/office.ts';
import { seedLeads } from '../../tests/support/seed.ts';
import { freePort } from '../../tests/support/server.ts';
import { postgresAvailable } from '../../tests/support/services.ts';
import { quoteBody, random } from '../office/people.ts';
import { officeClock } from '../office/stores.ts';
import { ROOT } from '../serve.ts';
import { CrashingServer } from './crashes.ts';
import { Ledger } from './ledger.ts';
import { workOffice, type Account } from './office.ts';
import { postgresStore, sqliteStore, type SoakStore } from './stores.ts';
import { sendLeads } from './traffic.ts';
import { goneStrings, leftBehind, soakStrings, verdict } from './verify.ts';

const { values: options } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    store: { type: 'string' },
    seed: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const minutes = Number(options.minutes);
if (!(minutes > 0)) throw new Error(`--minutes must be a number of minutes above 0, not "${options.minutes}"`);
const kinds = options.store ? [options.store.toLowerCase()] : ['sqlite', 'postgresql'];
if (kinds.some((k) => k !== 'sqlite' && k !== 'postgresql')) throw new Error(`--store must be sqlite or postgresql, not "${options.store}"`);
const seed = options.seed === undefined ? randomBytes(4).readUInt32BE() : Number(options.seed);
/** Between two kills: 2 to 18 seconds, so that some land during a start-up's work and some after minutes of load. */
const killGapMs = (r: () => number) => 2_000 + r() * 16_000;
const DAY_MS = 86_400_000;
const PASSWORD = 'soak mop and bucket 2026';
const ACCOUNTS = [
  { email: 'soak.owner.1@example.com', role: 'owner' },
  { email: 'soak.owner.2@example.com', role: 'owner' },
  { email: 'soak.staff.1@example.com', role: 'staff' },
  { email: 'soak.staff.2@example.com', role: 'staff' },
] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const clockOf = (started: number) => {
  const s = Math.round((performance.now() - started) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
const n = (x: number) => x.toLocaleString('en-US');

/** The soak on one store: accounts, the server, leads and office work with kills for `minutes`, then the verdict. */
async function soak(store: SoakStore): Promise<boolean> {
  const run = randomBytes(3).toString('hex');
  const ledger = new Ledger(run);
  const clock = officeClock();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: store.databaseUrl, SITE_URL: url, TRUST_PROXY: '127.0.0.1, ::1', REDIS_URL: '', LOG_LEVEL: 'info', LOG_FORMAT: 'json' };
  const server = new CrashingServer({ port, dir: store.dir, env });
  // Stopped by a person (Ctrl-C), a timeout or its own failure: the server goes with the soak, and so does the store unless kept.
  const abandon = async () => {
    await server.abandon();
    if (!options.keep) await store.remove().catch(() => {});
    process.exit(130);
  };
  const leftRunning = () => server.killNow();
  process.once('SIGINT', abandon).once('SIGTERM', abandon).once('exit', leftRunning);

  for (const a of ACCOUNTS) await addUser(store.databaseUrl, a.email, PASSWORD, ['--role', a.role]);
  const opened = await store.open();
  const users = await opened.listUsers().finally(() => opened.close());
  const accounts: Account[] = ACCOUNTS.map((a) => ({ ...a, password: PASSWORD, id: users.find((u) => u.email === a.email)!.id, client: {} }));
  await server.start();
  console.log(`${store.name}: the built server on ${url}, ${minutes} min, seed ${seed}, run ${run}`);

  const r = random(seed);
  /** Old leads (received 731 to 750 days ago, past the default retention) stored behind the server's back, for a purge. */
  const storeOldLeads = async (count: number) => {
    const olds = Array.from({ length: count }, () => ledger.nextOld());
    const old = (i: number) => new Date(Date.now() - (731 + ((ledger.old.length + i) % 20)) * DAY_MS);
    const body = (i: number) => {
      const quote = quoteBody(1_000_000 + ledger.old.length + i, r);
      return { ...quote, email: olds[i]!.email, notes: `${quote.notes} ${olds[i]!.marker}` };
    };
    for (let tries = 0; ; tries++) {
      try {
        const s = await store.open();
        await seedLeads(s, count, { body, receivedAt: old, answerBy: (i) => answerBy(old(i), clock.promise) }).finally(() => s.close());
        return;
      } catch (err) {
        // The server's own start holds the file a moment (its migrations, its purge): try again.
        if (tries >= 5) throw err;
        await sleep(1_000);
      }
    }
  };

  let stopping = false;
  const traffic = { server, ledger, r, stopping: () => stopping };
  const working = Promise.all([sendLeads(traffic), workOffice({ ...traffic, accounts, storeOldLeads, databaseUrl: store.databaseUrl, holds: store.holds })]);
  const started = performance.now();
  const kills = random(seed + 1);
  // What is found, while a server runs, of a lead deleted, purged or refused before a kill: each string once, with when.
  const whileRunning = new Map<string, string>();
  const look = async (gone: string[], when: string) => {
    for (const left of leftBehind(gone, soakStrings(await store.contents(), run))) if (!whileRunning.has(left)) whileRunning.set(left, when);
  };
  for (;;) {
    await sleep(killGapMs(kills));
    if (performance.now() - started >= minutes * 60_000) break;
    const [cut, at, gone] = [{ ...ledger.inFlight }, clockOf(started), goneStrings(ledger)];
    const { pid, awayMs } = await server.killAndRestart();
    // Once the next server serves (the look stops this process a moment: never just before a kill, which it would soften).
    await look(gone, `after kill ${server.kills}`);
    console.log(
      `  kill ${server.kills} at ${at}: SIGKILL to the server (pid ${pid}) with ${cut.leads} leads and ${cut.office} office changes in ` +
        `flight; serving again ${(awayMs / 1000).toFixed(1)} s later`,
    );
  }
  stopping = true;
  await working;

  // While the last server still runs, once all is done: nothing deleted, purged or refused in the file or its log.
  await sleep(1_000);
  await look(goneStrings(ledger), 'at the end, before the server stopped');
  const code = await server.stop();
  process.off('SIGINT', abandon).off('SIGTERM', abandon).off('exit', leftRunning);
  const s = await store.open();
  let result;
  try {
    const today = parseLocalDate(localDateInput(new Date(), clock.promise.timeZone), clock.promise.timeZone)!;
    const setting = { ...clock, timeZone: clock.promise.timeZone, range: { since: today, until: nextLocalDay(today, clock.promise.timeZone) } };
    result = await verdict(ledger, s, setting, soakStrings(await store.contents(), run));
  } finally {
    await s.close();
  }
  const integrity = await store.integrity();
  const kept = await store.keptCounts();
  const problems = [
    ...result.problems,
    ...kept,
    ...server.deaths,
    ...[...ledger.anomalies].map(([what, count]) => `${what} (${count}×)`),
    ...[...server.errors].filter(([what]) => !what.startsWith('warned')).map(([what, count]) => `the server ${what} (${count}×)`),
    ...[...whileRunning].map(([left, when]) => `${left} is in the store's file or its write-ahead log ${when}, after it was gone`),
    ...(code === 0 ? [] : [`the server stopped with exit code ${code} on SIGTERM`]),
    ...(integrity === 'ok' || integrity.startsWith('not applicable') ? [] : [`integrity_check: ${integrity}`]),
  ];
  const resent = ledger.leads.filter((l) => l.resent > 0 && l.outcome === 'acknowledged').length;
  console.log(
    `${store.name}: ${server.kills} kills${server.deaths.length ? ` (and ${server.deaths.length} exits by itself)` : ''}; leads acknowledged ${n(result.leadsAcknowledged)}, lost ${result.leadsLost} ` +
      `(${n(resent)} sent again with the same key after an answer was lost, each stored once unless said below; ` +
      `${n(ledger.leads.filter((l) => l.outcome === 'refused' && !l.duplicateOf).length)} refused, ` +
      `${n(ledger.leads.filter((l) => l.duplicateOf).length)} duplicates refused, ${n(ledger.caught.length)} caught); ` +
      `office changes acknowledged ${n(result.changesAcknowledged)}, lost ${result.changesLost} ` +
      `(${ledger.changesUnknown} with their answer lost, ${ledger.changesRefused} refused); ` +
      `recounts equal: ${result.figuresEqual && kept.length === 0 ? 'yes' : 'NO'}; integrity_check: ${integrity}; ` +
      `bytes of leads gone: ${problems.some((p) => p.includes('still in what') || p.includes('not from what')) ? 'FOUND' : 'none left'}`,
  );
  const kinds = Object.entries(Object.groupBy(ledger.changes, (c) => c.kind)).map(([kind, list]) => `${list!.length} ${kind}`);
  const purged = ledger.old.filter((o) => o.purged).length;
  console.log(`  office changes acknowledged: ${kinds.join(', ')} (the purges removed ${purged} old leads stored behind the server's back)`);
  for (const p of problems.slice(0, 30)) console.log(`  PROBLEM: ${p}`);
  if (problems.length > 30) console.log(`  … and ${problems.length - 30} more problems`);
  for (const [what, count] of [...ledger.notes, ...[...server.errors].filter(([w]) => w.startsWith('warned'))]) console.log(`  noted ${count}×: ${what}`);
  if (options.keep) console.log(`  kept: ${store.databaseUrl}`);
  else await store.remove();
  return problems.length === 0 && result.leadsLost === 0 && result.changesLost === 0;
}

if (!existsSync(join(ROOT, 'dist/server/entry.mjs'))) {
  console.log('building the site first (npm run build)…');
  spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'inherit' });
}
let ok = true;
for (const kind of kinds) {
  if (kind === 'postgresql' && !postgresAvailable()) {
    console.log('PostgreSQL: not soaked (nothing answered on 127.0.0.1:5432)');
    continue;
  }
  ok = (await soak(kind === 'sqlite' ? await sqliteStore() : await postgresStore())) && ok;
}
process.exitCode = ok ? 0 : 1;
