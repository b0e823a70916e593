/**
 * The soak's verdict, read from the store once the server has stopped: every acknowledged lead there exactly once unless
 * the soak deleted or purged it, every refused one absent, each caught submission kept aside or released, each
 * acknowledged office change there (its effect and its line in the audit trail), the office's figures equal to a
 * recount from the rows (`tests/support/office-figures.ts`), and no byte of a lead that is gone (its e-mail address,
 * its marker, its reference) left in what the store holds: the SQLite file and its write-ahead log, or every row of the
 * PostgreSQL schema.
 */
import { isDeepStrictEqual } from 'node:util';
import type { InboxLead } from '../../src/office/store.ts';
import type { Store } from '../../src/store/index.ts';
import { expectedFigures, shownFigures, type CountedLead, type FiguresSetting } from '../../tests/support/office-figures.ts';
import type { Ledger } from './ledger.ts';

/** What the verdict found; a list of problems, each in words, is empty when all is well. */
export interface Verdict {
  leadsAcknowledged: number;
  leadsLost: number;
  changesAcknowledged: number;
  changesLost: number;
  figuresEqual: boolean;
  problems: string[];
}

/** The soak's strings found in `texts` (a store's bytes, or its rows as text): e-mail numbers (`12`, `old3`), markers, references. */
export function soakStrings(texts: readonly string[], run: string): { emails: Set<string>; markers: Set<string>; references: Set<string> } {
  const found = { emails: new Set<string>(), markers: new Set<string>(), references: new Set<string>() };
  for (const text of texts) {
    for (const m of text.matchAll(new RegExp(`soak\\.${run}\\.((?:old)?\\d+)@example\\.com`, 'g'))) found.emails.add(m[1]!);
    for (const m of text.matchAll(new RegExp(`\\[soak ${run} (lead|old) (\\d+)\\]`, 'g'))) found.markers.add(m[1] === 'old' ? `old${m[2]}` : m[2]!);
    for (const m of text.matchAll(/[QC]-[0-9A-Z]{4}-[0-9A-Z]{2}/g)) found.references.add(m[0]);
  }
  return found;
}

/** The number an e-mail address of the soak carries (a duplicate's is its first lead's). */
const numberOf = (email: string) => /^soak\.[^.]+\.((?:old)?\d+)@/.exec(email)![1]!;

/**
 * What must not be found in the store's bytes: the strings of every lead the store no longer holds (or never held), as
 * the ledger tells it (`rows` unknown: while the server runs) or as the rows show it. Each as `email 12`, `reference Q-…`.
 */
export function goneStrings(ledger: Ledger, rows?: { emails: Set<string>; references: Set<string> }): string[] {
  const gone: string[] = [];
  for (const lead of ledger.leads) {
    if (lead.duplicateOf) continue;
    const isGone = rows ? !rows.emails.has(lead.email) : lead.outcome === 'refused' || lead.deleted === 'yes';
    if (!isGone) continue;
    gone.push(`email ${numberOf(lead.email)}`, `marker ${numberOf(lead.email)}`);
    if (lead.reference && !rows?.references.has(lead.reference)) gone.push(`reference ${lead.reference}`);
  }
  for (const [k, old] of ledger.old.entries())
    if (old.purged && (rows ? !rows.emails.has(old.email) : !old.erasePending)) gone.push(`email old${k}`, `marker old${k}`);
  return gone;
}

/** Which of `gone` are found among `found` (the soak's strings in the store's bytes). */
export function leftBehind(gone: readonly string[], found: ReturnType<typeof soakStrings>): string[] {
  return gone.filter((g) => {
    const [kind, value] = g.split(' ') as ['email' | 'marker' | 'reference', string];
    return found[kind === 'email' ? 'emails' : kind === 'marker' ? 'markers' : 'references'].has(value);
  });
}

/** The office's figures as its page reads them, and a recount from the rows of `leads` (and the caught ones, `spam`). */
async function figures(store: Store, leads: InboxLead[], spam: number, setting: FiguresSetting, now: Date) {
  const counted: CountedLead[] = leads.map((l) => ({
    reference: l.lead.reference,
    name: String(l.lead.fields.name),
    email: l.lead.emailNormalised,
    phone: l.lead.phoneE164.slice(2),
    form: l.lead.formType,
    ...(l.lead.formType === 'quote' && { service: String(l.lead.fields.service) }),
    receivedAt: new Date(l.lead.receivedAt),
    answerBy: new Date(l.lead.answerBy ?? Number.NaN),
    status: l.status,
    ...(l.firstContact && { firstContactAt: l.firstContact.at }),
  }));
  // As JSON: a member left undefined on one side and absent on the other is the same figure.
  const plain = (x: unknown) => JSON.parse(JSON.stringify(x));
  const shown = plain(await shownFigures(store, now, setting));
  const recount = plain(expectedFigures({ leads: counted, spam: Array.from({ length: Math.min(spam, 1_000) }), searches: [] }, now, setting));
  const differ = Object.keys(recount).filter((k) => !isDeepStrictEqual(shown[k], recount[k]));
  return differ.map((k) => `the office's ${k} differ from a recount of the rows: shown ${JSON.stringify(shown[k])}, recounted ${JSON.stringify(recount[k])}`);
}

/** What each lead of the ledger should be in the rows, set against them: the problems, and how many acknowledged leads are lost. */
function leadsAgainstRows(ledger: Ledger, byEmail: Map<string, InboxLead[]>, spamByEmail: Map<string, number>, problems: string[]): number {
  let lost = 0;
  for (const lead of ledger.leads) {
    if (lead.duplicateOf) continue;
    const rows = byEmail.get(lead.email) ?? [];
    const spam = spamByEmail.get(lead.email) ?? 0;
    const what = `${lead.outcome} lead ${lead.n} (${lead.door}${lead.reference ? `, ${lead.reference}` : ''})`;
    const caught = lead.outcome === 'caught' || lead.outcome === 'caught, answer lost';
    if (lead.outcome === 'sent') problems.push(`${what} was never answered`);
    if (lead.outcome === 'refused' && rows.length + spam > 0) problems.push(`refused ${what} is stored`);
    if (lead.deleted === 'yes' && rows.length + spam > 0) problems.push(`${what}, deleted on request, is still stored`);
    if (lead.outcome === 'refused' || lead.outcome === 'sent' || lead.deleted) continue;
    const inInbox = lead.outcome === 'acknowledged' || lead.released === 'yes';
    if (rows.length > 1 || spam > 1 || rows.length + spam > 1) problems.push(`${what} is stored ${rows.length + spam} times`);
    else if (inInbox && rows.length === 0) {
      lost++;
      problems.push(`${what} is LOST: not in the store${spam ? ' (still in suspected spam)' : ''}`);
    } else if (caught && lead.released === undefined && lead.outcome === 'caught' && spam === 0)
      problems.push(`${what} is not in suspected spam${rows.length ? ': it is in the inbox, released by nobody' : ''}`);
    else if (rows[0] && lead.reference && rows[0].lead.reference !== lead.reference)
      problems.push(`${what} is stored with the reference ${rows[0].lead.reference}`);
    else if (rows[0] && lead.id && rows[0].lead.id !== lead.id) problems.push(`${what} is stored with another id than the one acknowledged`);
  }
  return lost;
}

/** Each acknowledged change to a lead still stored, set against what the rows and the audit trail hold: the problems, and how many are lost. */
function changesAgainstRows(ledger: Ledger, byEmail: Map<string, InboxLead[]>, audit: Map<string, number>, problems: string[]): number {
  let lost = 0;
  const miss = (what: string, count = 1) => ((lost += count), problems.push(what));
  for (const lead of ledger.acknowledged) {
    const row = byEmail.get(lead.email)?.[0];
    if (!row || lead.deleted) continue;
    const view = lead.office;
    const at = `${lead.reference}`;
    if (!view.status.has(row.status)) miss(`${at}: status ${row.status}, where the office was told ${[...view.status].join(' or ')}`);
    if (!view.owner.has(row.owner ?? null)) miss(`${at}: held by ${row.owner ?? 'nobody'}, where the office was told ${[...view.owner].join(' or ')}`);
    const texts = row.notes.map((n) => n.text);
    for (const text of view.notes)
      if (texts.filter((t) => t === text).length !== 1) miss(`${at}: an acknowledged note is there ${texts.filter((t) => t === text).length} times`);
    for (const text of texts) if (!view.notes.includes(text) && texts.filter((t) => t === text).length > 1) problems.push(`${at}: a note is there twice`);
    for (const text of texts) if (!view.notes.includes(text) && !view.maybeNotes.includes(text)) problems.push(`${at}: a note nobody sent`);
    if (view.contacted === 'yes' && !row.firstContact) miss(`${at}: no first contact, though a change to contacted or done was acknowledged`);
    if (view.contacted === 'no' && row.firstContact) problems.push(`${at}: a first contact, though no change from new was sent`);
  }
  // Each acknowledged change has its line (by whom, what, which lead), the deletions' naming no lead.
  const expected = new Map<string, number>();
  const ACTION = {
    status: 'set a status',
    note: 'added a note',
    take: 'set the owner',
    give: 'set the owner',
    release: 'released from spam',
    delete: 'deleted on request',
  };
  for (const c of ledger.changes) {
    if (c.kind === 'purge') continue;
    const lead = c.reference && ledger.leads.find((l) => l.reference === c.reference);
    if (lead && lead.deleted) continue;
    const key = `${c.actor} ${ACTION[c.kind]} ${c.reference ?? ''}`;
    expected.set(key, (expected.get(key) ?? 0) + 1);
  }
  for (const [key, count] of expected)
    if ((audit.get(key) ?? 0) < count) miss(`the audit trail lacks ${count - (audit.get(key) ?? 0)} of ${count} lines "${key}"`, count - (audit.get(key) ?? 0));
  return lost;
}

/** The verdict on `store` (opened after the server stopped), set against `ledger`; `bytes`: the soak's strings found in what the store holds. */
export async function verdict(ledger: Ledger, store: Store, setting: FiguresSetting, found: ReturnType<typeof soakStrings>): Promise<Verdict> {
  const problems: string[] = [];
  const leads: InboxLead[] = [];
  for await (const l of store.exportInbox({})) leads.push(l);
  const spam = await store.listSpam({ limit: 100_000, offset: 0 });
  const byEmail = new Map<string, InboxLead[]>();
  for (const l of leads) byEmail.set(l.lead.emailNormalised, [...(byEmail.get(l.lead.emailNormalised) ?? []), l]);
  const spamByEmail = new Map<string, number>();
  for (const s of spam) spamByEmail.set(String(s.body.email).toLowerCase(), (spamByEmail.get(String(s.body.email).toLowerCase()) ?? 0) + 1);
  const audit = new Map<string, number>();
  for (const a of await store.recent(1_000_000)) {
    const key = `${a.actor} ${a.action} ${a.action === 'deleted on request' ? '' : (/[QC]-[0-9A-Z]{4}-[0-9A-Z]{2}/.exec(a.detail)?.[0] ?? '')}`;
    audit.set(key, (audit.get(key) ?? 0) + 1);
  }

  const leadsLost = leadsAgainstRows(ledger, byEmail, spamByEmail, problems);
  let changesLost = changesAgainstRows(ledger, byEmail, audit, problems);
  for (const [k, old] of ledger.old.entries())
    if (old.purged && byEmail.has(old.email)) {
      changesLost++;
      problems.push(`old lead ${k} is still stored after an acknowledged purge`);
    }
  // A deletion acknowledged and its lead still there (said among the leads' problems) is a change lost.
  changesLost += ledger.leads.filter((l) => l.deleted === 'yes' && byEmail.has(l.email)).length;

  // The bytes: every lead gone is gone from the file (or the schema's rows) too; every lead there is found there.
  const rows = {
    emails: new Set([...byEmail.keys(), ...spamByEmail.keys()]),
    references: new Set([...leads.map((l) => l.lead.reference), ...spam.map((s) => s.reference)]),
  };
  for (const left of leftBehind(goneStrings(ledger, rows), found)) problems.push(`${left} is gone from the rows but not from what the store holds`);
  const unseen = leads.filter((l) => l.lead.emailNormalised.startsWith(`soak.${ledger.run}.`) && !found.emails.has(numberOf(l.lead.emailNormalised)));
  if (unseen.length > 0) problems.push(`${unseen.length} stored leads' e-mail addresses not found in what the store holds: the search of its bytes is blind`);

  const figureProblems = await figures(store, leads, spam.length, setting, new Date());
  problems.push(...figureProblems);
  const acknowledged = ledger.leads.filter((l) => l.outcome === 'acknowledged' && !l.duplicateOf).length;
  return {
    leadsAcknowledged: acknowledged,
    leadsLost,
    changesAcknowledged: ledger.changes.length,
    changesLost,
    figuresEqual: figureProblems.length === 0,
    problems,
  };
}
