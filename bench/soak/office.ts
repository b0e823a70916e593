/**
 * The office's side of the soak, through the running server's office pages as its forms post them: each account
 * (owners and staff, made with `npm run -s leads -- user add`) signed in once, then working the acknowledged leads
 * meanwhile (statuses, notes, taking leads and giving them to colleagues, a deletion on request, a caught submission
 * released), and a retention purge now and then (`npm run -s leads -- purge`, after old leads were stored behind the
 * server's back). An office change is not sent again when its answer is lost (it has no key): the lead is then left
 * alone, and the verdict allows either outcome.
 */
import { leads as leadsCommand } from '../../tests/support/server.ts';
import { newClient } from '../../tests/support/fixtures.ts';
import { signedIn } from '../../tests/support/office.ts';
import type { LeadStatus } from '../../src/office/store.ts';
import type { CrashingServer } from './crashes.ts';
import type { Ledger, OfficeChange, SentLead } from './ledger.ts';

/** An account of the office: made before the soak, signed in once (its session outlives every kill). */
export interface Account {
  email: string;
  password: string;
  role: 'owner' | 'staff';
  /** Its opaque id, by which an owner's form names it. */
  id: string;
  cookie?: string;
  /** Its own client address behind `TRUST_PROXY`. */
  client: Record<string, string>;
}

export interface OfficeWork {
  server: CrashingServer;
  ledger: Ledger;
  accounts: Account[];
  r: () => number;
  stopping: () => boolean;
  /** Stores `count` old leads (received past retention) behind the server's back, each in the ledger's `old`. */
  storeOldLeads: (count: number) => Promise<void>;
  databaseUrl: string;
  /** Which of `strings` the store holds anywhere: its bytes, or its rows. */
  holds: (strings: readonly string[]) => Promise<string[]>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const STATUSES: LeadStatus[] = ['new', 'contacted', 'done'];
const back = '/office';

type Reply = { status: number; location: string; text: string };

/** A GET, or a POST of `fields` as the office page's form sends it, with the account's session; `lost` when the answer was. */
async function officeRequest(work: OfficeWork, account: Account, path: string, fields?: URLSearchParams): Promise<Reply | 'lost'> {
  const { server, ledger } = work;
  await server.whenUp();
  ledger.inFlight.office++;
  try {
    const headers = { Cookie: account.cookie!, ...account.client, ...(fields && { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url }) };
    const res = await fetch(`${server.url}${path}`, {
      method: fields ? 'POST' : 'GET',
      headers,
      body: fields?.toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text() };
  } catch {
    return 'lost';
  } finally {
    ledger.inFlight.office--;
  }
}

/** Signs `account` in, again and again until the server answers. */
async function signIn(work: OfficeWork, account: Account): Promise<void> {
  for (;;) {
    await work.server.whenUp();
    try {
      account.cookie = await signedIn(work.server.url, account, account.client);
      return;
    } catch {
      await sleep(500);
    }
  }
}

/** Who has the lead, as its form shows it to `account`: `me`, `nobody` or the holder's id. */
function ownerField(work: OfficeWork, account: Account, holder: string | null): string {
  if (holder === null) return 'nobody';
  return holder === account.email ? 'me' : work.accounts.find((a) => a.email === holder)!.id;
}

/** The lead's own form as the page shows it to `account` (its status and who has it), with `changed` made. */
function leadForm(work: OfficeWork, account: Account, lead: SentLead, changed: { status?: LeadStatus; owner?: string | null; note?: string }) {
  const [status] = lead.office.status;
  const [holder] = lead.office.owner;
  const shown = { status: status!, owner: ownerField(work, account, holder!) };
  return {
    reference: lead.reference!,
    back,
    'was-status': shown.status,
    status: changed.status ?? shown.status,
    'was-owner': shown.owner,
    owner: changed.owner === undefined ? shown.owner : ownerField(work, account, changed.owner),
    note: changed.note ?? '',
  };
}

/**
 * Sends one change and records it: acknowledged (a 303 back to the inbox, or the page's words of success), refused with
 * nothing changed (429, 503), or lost (the lead then left alone). `applied` is what the change leaves when made.
 */
async function change(
  work: OfficeWork,
  account: Account,
  what: OfficeChange,
  send: () => Promise<Reply | 'lost'>,
  made: (reply: Reply) => boolean,
  applied: (known: boolean) => void,
  lead?: SentLead,
): Promise<void> {
  const { ledger } = work;
  const reply = await send();
  if (reply === 'lost' || (reply.status >= 500 && reply.status !== 503)) {
    if (reply !== 'lost') ledger.anomaly(`an office ${what.kind} was answered ${reply.status}`);
    ledger.changesUnknown++;
    if (lead) lead.office.uncertain = true;
    return applied(false);
  }
  if (made(reply)) {
    ledger.changes.push(what);
    return applied(true);
  }
  ledger.changesRefused++;
  if (reply.location.startsWith('/office/sign-in')) {
    ledger.anomaly('a signed-in session was sent to the sign-in page (its change held, not made)');
    await signIn(work, account);
  } else if (reply.status === 429) await sleep(2_000);
  else if (reply.status !== 503) ledger.anomaly(`an office ${what.kind} on a lead it knows was refused with ${reply.status}`);
}

const acknowledgedBy = (param: string, reference: string) => (reply: Reply) =>
  reply.status === 303 && new URL(reply.location, 'http://x').searchParams.get(param) === reference;

/** A status other than the lead's, from the inbox's buttons or from the lead's own form (which also sends who has it, unchanged). */
async function setStatus(work: OfficeWork, account: Account, lead: SentLead): Promise<void> {
  const { r } = work;
  const [from] = lead.office.status;
  const to = STATUSES.filter((s) => s !== from)[Math.floor(r() * 2)]!;
  const reference = lead.reference!;
  const [path, fields] = r() < 0.5 ? ['/office/status', { reference, status: to, back }] : ['/office/work', leadForm(work, account, lead, { status: to })];
  await change(
    work,
    account,
    { kind: 'status', actor: account.email, reference },
    () => officeRequest(work, account, path, new URLSearchParams(fields)),
    acknowledgedBy('changed', reference),
    (known) => {
      if (known) lead.office.status = new Set([to]);
      else lead.office.status.add(to);
      if (to !== 'new') lead.office.contacted = known ? 'yes' : lead.office.contacted === 'yes' ? 'yes' : 'maybe';
    },
    lead,
  );
}

let notes = 0;
/** A note of a call, from the inbox's note box or from the lead's own form. */
async function addNote(work: OfficeWork, account: Account, lead: SentLead): Promise<void> {
  const reference = lead.reference!;
  const text = `Soak ${work.ledger.run} note ${++notes}: called, left a message.`;
  const [path, fields] = work.r() < 0.5 ? ['/office/note', { reference, note: text, back }] : ['/office/work', leadForm(work, account, lead, { note: text })];
  await change(
    work,
    account,
    { kind: 'note', actor: account.email, reference },
    () => officeRequest(work, account, path, new URLSearchParams(fields)),
    acknowledgedBy('noted', reference),
    (known) => (known ? lead.office.notes : lead.office.maybeNotes).push(text),
    lead,
  );
}

/** Staff take a lead (or let go of their own); an owner gives it to a colleague. */
async function handOff(work: OfficeWork, account: Account, lead: SentLead): Promise<void> {
  const reference = lead.reference!;
  const [holder] = lead.office.owner;
  const colleagues = work.accounts.filter((a) => a.email !== account.email && a.email !== holder);
  const to = account.role === 'owner' ? colleagues[Math.floor(work.r() * colleagues.length)]!.email : holder === account.email ? null : account.email;
  const [path, fields] =
    account.role === 'staff' && work.r() < 0.5
      ? ['/office/take', { reference, take: to === null ? 'no' : 'yes', back }]
      : ['/office/work', leadForm(work, account, lead, { owner: to })];
  await change(
    work,
    account,
    { kind: account.role === 'owner' ? 'give' : 'take', actor: account.email, reference },
    () => officeRequest(work, account, path, new URLSearchParams(fields)),
    acknowledgedBy(to === null ? 'let-go' : to === account.email ? 'taken' : 'given', reference),
    (known) => (known ? (lead.office.owner = new Set([to])) : lead.office.owner.add(to)),
    lead,
  );
}

/** An owner deletes a person's data on request: found by the e-mail address, their one lead ticked, deleted. */
async function deleteOnRequest(work: OfficeWork, account: Account, lead: SentLead): Promise<void> {
  const found = await officeRequest(work, account, '/office/delete', new URLSearchParams({ person: lead.email }));
  if (found === 'lost' || found.status !== 200) return;
  const ids = [...found.text.matchAll(/name="lead" value="([^"]+)"/g)].map((m) => m[1]!);
  if (ids.length !== 1 || (lead.id && ids[0] !== lead.id)) {
    work.ledger.anomaly(`a deletion on request found ${ids.length} leads by one lead's own e-mail address`);
    return;
  }
  const fields = new URLSearchParams({ person: lead.email, confirm: 'yes', lead: ids[0]! });
  await change(
    work,
    account,
    { kind: 'delete', actor: account.email },
    () => officeRequest(work, account, '/office/delete', fields),
    (reply) => reply.status === 200 && reply.text.includes('Removed 1 lead.'),
    (known) => (lead.deleted = known ? 'yes' : 'maybe'),
    lead,
  );
  if (lead.deleted !== 'yes') return;
  // Erased once the answer says so: the file and its write-ahead log no longer hold any of it (unless the server said why not yet).
  const left = await work.holds([lead.email, lead.marker, lead.reference!]);
  if (left.length === 0) return;
  if (work.server.heldOff()) work.ledger.note('a deleted lead was still in the write-ahead log after its answer, as the server warned');
  else work.ledger.anomaly("a lead's e-mail address, marker or reference was still in the store right after its deletion on request was answered");
}

/** A caught submission moved to the inbox: found by its reference in the spam folder's search, released there. */
async function release(work: OfficeWork, account: Account, caught: SentLead): Promise<void> {
  const reference = caught.reference!;
  const searched = await officeRequest(work, account, '/office/search', new URLSearchParams({ list: 'spam', q: reference }));
  if (searched === 'lost' || searched.status !== 303) return;
  const page = await officeRequest(work, account, searched.location);
  if (page === 'lost' || page.status !== 200) return;
  // Its own entry: the button after its reference (a colleague's deletion on request meanwhile forgets every kept search,
  // and the folder is then listed whole, saying so).
  const at = page.text.indexOf(reference);
  const id = at === -1 ? undefined : /name="id" value="([^"]+)"/.exec(page.text.slice(at))?.[1];
  if (!id) {
    if (!page.text.includes('name="id"')) work.ledger.anomaly("the spam folder's search by a caught submission's reference found nothing");
    return;
  }
  await change(
    work,
    account,
    { kind: 'release', actor: account.email, reference },
    () => officeRequest(work, account, '/office/spam', new URLSearchParams({ id })),
    (reply) => reply.status === 200 && reply.text.includes(`Moved to the inbox as ${reference}.`),
    (known) => {
      caught.released = known ? 'yes' : 'maybe';
      // Released, it is a lead like any other, for the office to work (unless its answer was lost).
      if (known) work.ledger.acknowledged.push(caught);
    },
    caught,
  );
}

/** One account's work until the soak stops: a change every second or so, on a lead nobody else is working. */
async function workAs(work: OfficeWork, account: Account): Promise<void> {
  const { ledger, r } = work;
  await signIn(work, account);
  while (!work.stopping()) {
    await sleep(500 + r() * 1_000);
    const x = r();
    const releasing = x < 0.08;
    const deleting = account.role === 'owner' && x >= 0.08 && x < 0.16;
    const lead = releasing ? ledger.caught.find((c) => c.released === undefined && !c.office.busy) : ledger.pick(r, { deletable: deleting });
    if (!lead) continue;
    lead.office.busy = true;
    try {
      if (releasing) await release(work, account, lead);
      else if (deleting) await deleteOnRequest(work, account, lead);
      else if (x < 0.55) await setStatus(work, account, lead);
      else if (x < 0.75) await addNote(work, account, lead);
      else await handOff(work, account, lead);
    } finally {
      lead.office.busy = false;
    }
  }
}

/**
 * The retention purge, now and then until the soak stops, and once more at its end: old leads stored behind the
 * server's back, then `npm run -s leads -- purge` (the operator's command, default retention) while the server runs and
 * is killed. Acknowledged when the command says what it removed: every old lead stored before it must then be gone.
 */
async function purgeNowAndThen(work: OfficeWork): Promise<void> {
  const { ledger, r } = work;
  while (!work.stopping()) {
    await sleep(15_000 + r() * 20_000);
    if (work.stopping()) break;
    await work.storeOldLeads(6);
    await sleep(r() * 3_000);
    await purge(work);
  }
  if (ledger.old.some((o) => !o.purged)) await purge(work);
}

async function purge(work: OfficeWork): Promise<void> {
  const { ledger } = work;
  const before = ledger.old.filter((o) => !o.purged);
  const ran = await leadsCommand(work.databaseUrl, ['purge']);
  if (ran.code === 0 && /^Removed \d+ leads? /.test(ran.stdout)) {
    // The command says when a reader (the running server) held off the emptying of the write-ahead log.
    const pending = /write-ahead log still holding deleted rows|could not empty the write-ahead log/.test(ran.stderr);
    if (pending) ledger.note('npm run -s leads -- purge said the write-ahead log still holds the rows it removed (the running server held it off)');
    for (const o of before) Object.assign(o, { purged: true, erasePending: pending });
    ledger.changes.push({ kind: 'purge', actor: 'npm run -s leads -- purge' });
  } else {
    ledger.changesRefused++;
    ledger.anomaly(`npm run -s leads -- purge exited with ${ran.code}: ${ran.stderr.trim().split('\n')[0]}`);
  }
}

/** The office's work, every account at once, and the purge beside it, until the soak stops. */
export async function workOffice(work: OfficeWork): Promise<void> {
  for (const account of work.accounts) account.client = newClient();
  await Promise.all([...work.accounts.map((a) => workAs(work, a)), purgeNowAndThen(work)]);
}
