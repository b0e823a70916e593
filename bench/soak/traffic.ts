/**
 * The customers' side of the soak: leads at 16 in flight through the API (`/api/v1/leads` and its alias `/api/leads`,
 * each with an `Idempotency-Key`) and through the forms' pages as a browser without JavaScript posts them (`/quote` and
 * `/contact`, each with a form token issued at least 3 s before), each from a client address of its own behind
 * `TRUST_PROXY`, as the bench's are. A few are refused on purpose (no consent, a bad phone number, a duplicate), a few
 * caught by the forms' hidden field. A request whose answer is lost to a kill is sent again, with the same key or
 * token, once the server serves again, until it is answered.
 */
import { randomUUID } from 'node:crypto';
import { MIN_FILL_MS } from '../../src/web-forms/submit.ts';
import { contact, newClient } from '../../tests/support/fixtures.ts';
import { quoteBody } from '../office/people.ts';
import type { CrashingServer } from './crashes.ts';
import type { Door, Ledger, SentLead } from './ledger.ts';

/** Leads in flight at once, as the bench's soak sends them. */
export const IN_FLIGHT = 16;
/** A request unanswered this long has hung (a finding): it is sent again. */
const HANG_MS = 30_000;
/** Caught submissions kept at most (the office's count of them stops at 1,000). */
const CAUGHT_AT_MOST = 300;
/** What each form token waits before it is used, beyond the forms' minimum fill time. */
const TOKEN_AGE_MS = MIN_FILL_MS + 250;
/** Tokens kept ready for each form. */
const TOKENS_READY = 24;

export interface Traffic {
  server: CrashingServer;
  ledger: Ledger;
  r: () => number;
  stopping: () => boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const REFERENCE = /data-reference[^>]*>\s*([QC]-[0-9A-Z]{4}-[0-9A-Z]{2})\s*</;

/** Form tokens fetched from the forms' pages ahead of their use, each used once, at least `TOKEN_AGE_MS` after it was issued. */
export class FormTokens {
  private readonly ready = { quote: [] as Array<{ token: string; at: number }>, support: [] as Array<{ token: string; at: number }> };
  private readonly traffic: Traffic;

  constructor(traffic: Traffic) {
    this.traffic = traffic;
  }

  /** A token of `form` old enough to be used, or none yet. */
  take(form: 'quote' | 'support'): string | undefined {
    const oldest = this.ready[form][0];
    return oldest && Date.now() - oldest.at >= TOKEN_AGE_MS ? this.ready[form].shift()!.token : undefined;
  }

  /** Keeps `TOKENS_READY` tokens of each form until the soak stops, a page of each at a time. */
  async keepReady(): Promise<void> {
    await Promise.all([this.keep('quote'), this.keep('support')]);
  }

  private async keep(form: 'quote' | 'support'): Promise<void> {
    const { server, stopping } = this.traffic;
    while (!stopping()) {
      if (this.ready[form].length >= TOKENS_READY) {
        await sleep(100);
        continue;
      }
      await server.whenUp();
      const page = await fetch(`${server.url}/${form === 'quote' ? 'quote' : 'contact'}`, { headers: newClient(), signal: AbortSignal.timeout(HANG_MS) })
        .then((res) => res.text())
        .catch(() => '');
      const token = /name="formToken" value="([^"]+)"/.exec(page)?.[1];
      // Issued when the page was drawn, a moment before it arrived.
      if (token) this.ready[form].push({ token, at: Date.now() });
      else await sleep(50);
    }
  }
}

/** One request and its whole answer, or `lost` when the connection broke or the answer never came. */
async function exchange(traffic: Traffic, path: string, init: RequestInit): Promise<{ status: number; headers: Headers; text: string } | 'lost'> {
  const { server, ledger } = traffic;
  await server.whenUp();
  ledger.inFlight.leads++;
  try {
    const res = await fetch(`${server.url}${path}`, { ...init, redirect: 'manual', signal: AbortSignal.timeout(HANG_MS) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') ledger.anomaly(`a request to ${path.split('?')[0]} was not answered within ${HANG_MS / 1000} s`);
    // A moment before it is sent again: a server that has just died is not yet known to be down.
    await sleep(20);
    return 'lost';
  } finally {
    ledger.inFlight.leads--;
  }
}

/** How long a 429 or a 503 asks to wait (at most 10 s: the soak's own limit on a pause). */
const retryAfterMs = (headers: Headers) => Math.min(10, Number(headers.get('retry-after') ?? 1) || 1) * 1000;

/** What a lead is sent for: to be stored, refused (no consent, a bad phone), caught by the hidden field, or refused as a duplicate. */
type Intent = 'stored' | 'refused' | 'caught' | 'duplicate';

/** Sends `lead` through the API with one key and one client address until it is answered; records what it was told. */
async function throughApi(traffic: Traffic, lead: SentLead, body: Record<string, unknown>, intent: Intent): Promise<void> {
  const { ledger } = traffic;
  const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID(), ...newClient() };
  for (;;) {
    const reply = await exchange(traffic, lead.door, { method: 'POST', headers, body: JSON.stringify(body) });
    if (reply === 'lost') {
      ledger.answersLost++;
      lead.resent++;
      continue;
    }
    const json = reply.text.startsWith('{') ? JSON.parse(reply.text) : {};
    if (reply.status === 201) {
      if (intent !== 'stored') ledger.anomaly(`a lead sent to be ${intent === 'duplicate' ? 'refused as a duplicate' : 'refused'} was answered 201`);
      Object.assign(lead, { outcome: 'acknowledged', id: json.id, reference: json.reference });
      return;
    }
    if (reply.status === 429 || reply.status === 503 || reply.status >= 500) {
      if (reply.status >= 500 && reply.status !== 503) ledger.anomaly(`${lead.door} answered ${reply.status} (${json.code})`);
      lead.resent++;
      await sleep(retryAfterMs(reply.headers));
      continue;
    }
    if (intent === 'stored' && reply.status === 409 && lead.resent > 0) {
      // Sent again with its key after a lost answer, and called a duplicate: stored, once, but the replay was not kept with it.
      ledger.anomaly('a lead sent again with its Idempotency-Key after a lost answer was answered 409 duplicate_submission, not replayed');
      Object.assign(lead, { outcome: 'acknowledged', id: json.leadId });
      return;
    }
    if (intent === 'stored') ledger.anomaly(`a valid lead to ${lead.door} was refused: ${reply.status} ${json.code}`);
    lead.outcome = 'refused';
    return;
  }
}

/** The form's fields as a browser sends them, from the API's members (a count past the listed ones typed in its box). */
function formFields(body: Record<string, unknown>, token: string, intent: Intent): URLSearchParams {
  const fields = new URLSearchParams({ formToken: token });
  for (const [name, value] of Object.entries(body)) {
    if (name === 'formType' || name === 'consentTimestamp' || name === 'pageUrl') continue;
    if (name === 'communicationsConsent') fields.set(name, 'yes');
    else if (name === 'bedrooms' && Number(value) >= 5) {
      fields.set(name, 'more');
      fields.set('bedroomsMore', String(value));
    } else fields.set(name, String(value));
  }
  if (intent === 'caught') fields.set('website', 'https://offers.example.com');
  return fields;
}

/** Sends `lead` through its form's page with one token and one client address until it is answered; records what it was told. */
async function throughForm(traffic: Traffic, lead: SentLead, body: Record<string, unknown>, token: string, intent: Intent): Promise<void> {
  const { ledger, server } = traffic;
  const path = lead.door === '/quote' ? '/quote?_action=submitQuote' : '/contact?_action=submitContact';
  const headers = { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url, ...newClient() };
  const fields = formFields(body, token, intent).toString();
  for (;;) {
    const reply = await exchange(traffic, path, { method: 'POST', headers, body: fields });
    if (reply === 'lost') {
      ledger.answersLost++;
      // What the hidden field catches is kept aside as it comes, with no key: sent again, it would be kept twice.
      if (intent === 'caught') return void (lead.outcome = 'caught, answer lost');
      lead.resent++;
      continue;
    }
    const reference = REFERENCE.exec(reply.text)?.[1];
    if (reply.status === 200 && reference) {
      if (intent === 'refused') ledger.anomaly(`a refused form submission to ${lead.door} was answered as received`);
      // Sent again with its token after a lost answer: the first answer replayed, not "Already received" (the 24-hour rule's).
      if (/<h1[^>]*>\s*Already received/.test(reply.text))
        ledger.anomaly(`a form submission to ${lead.door} sent again was answered as a duplicate, not replayed`);
      Object.assign(lead, { outcome: intent === 'caught' ? 'caught' : 'acknowledged', reference });
      return;
    }
    if (reply.status === 429 || reply.status >= 500) {
      if (reply.status !== 429 && reply.status !== 503) ledger.anomaly(`${lead.door}'s form answered ${reply.status}`);
      lead.resent++;
      await sleep(retryAfterMs(reply.headers));
      continue;
    }
    if (intent !== 'refused' || reply.status !== 422) ledger.anomaly(`a form submission to ${lead.door} meant to be ${intent} was answered ${reply.status}`);
    lead.outcome = 'refused';
    return;
  }
}

/** A lead's body as the API takes it, carrying its own e-mail address and marker. */
function bodyOf(lead: SentLead, r: () => number): Record<string, unknown> {
  if (lead.form === 'support') return contact({ email: lead.email, message: `Could the visit move to Monday? ${lead.marker}` });
  const body = quoteBody(lead.n, r);
  return { ...body, email: lead.email, notes: `${body.notes} ${lead.marker}` };
}

/** Sends one lead, chosen with the soak's random numbers: its door, and what it is sent for. */
async function sendOne(traffic: Traffic, tokens: FormTokens): Promise<void> {
  const { ledger, r } = traffic;
  const x = r();
  const form: SentLead['form'] = r() < 0.6 ? 'quote' : 'support';
  let door: Door = x < 0.45 ? '/api/v1/leads' : x < 0.6 ? '/api/leads' : form === 'quote' ? '/quote' : '/contact';
  const intent: Intent =
    x >= 0.6 && x < 0.62 && ledger.caught.length < CAUGHT_AT_MOST ? 'caught' : x >= 0.92 && x < 0.96 ? 'refused' : x >= 0.96 ? 'duplicate' : 'stored';
  if (intent === 'duplicate') {
    // The same quote request again, with a key of its own: the 24-hour rule refuses it, and the first stays the only one.
    const first = ledger.acknowledged.findLast((l) => l.body && !l.deleted && !l.office.busy);
    if (!first) return;
    first.pinned = true;
    const again = ledger.next('/api/v1/leads', 'quote');
    Object.assign(again, { email: first.email, marker: first.marker, duplicateOf: first });
    return throughApi(traffic, again, first.body!, 'duplicate');
  }
  const token = door === '/quote' || door === '/contact' ? tokens.take(form) : undefined;
  if (!token) door = '/api/v1/leads';
  const lead = ledger.next(door, form);
  const body = bodyOf(lead, r);
  if (intent === 'refused') Object.assign(body, form === 'quote' && !token ? { communicationsConsent: false } : { phone: '555-01' });
  if (token) await throughForm(traffic, lead, body, token, intent);
  else await throughApi(traffic, lead, body, intent === 'caught' ? 'stored' : intent);
  if (lead.outcome === 'acknowledged') {
    if (lead.form === 'quote' && !token) lead.body = body;
    ledger.acknowledged.push(lead);
  } else if (lead.outcome === 'caught') ledger.caught.push(lead);
}

/** Sends leads, `IN_FLIGHT` at a time, until the soak stops; each sender finishes the lead it has begun. */
export async function sendLeads(traffic: Traffic): Promise<void> {
  const tokens = new FormTokens(traffic);
  const ready = tokens.keepReady();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (!traffic.stopping()) await sendOne(traffic, tokens);
    }),
  );
  await ready;
}
