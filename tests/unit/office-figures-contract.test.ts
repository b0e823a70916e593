/**
 * The office's figures, a contract of both stores: every count, chart and search the office's first page shows stays exact
 * through a lead's whole life (intake, first contacts and other status changes, deletion on request, the retention purge,
 * the release of a caught submission), across local midnights, the Monday boundary and a clock change in the office's time
 * zone. Each figure is read as the page reads it and compared, after every step, with the test's own model of the leads it
 * believes exist, worked out with plain code and the domain's clock, never with a store's own aggregation (both ways in
 * `tests/support/office-figures.ts`, which the soak shares).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { takeLead } from '../../src/leads/intake.ts';
import { answerBy } from '../../src/leads/next-step.ts';
import { newReference } from '../../src/leads/reference.ts';
import { personOf, purge, purgeCutoffs } from '../../src/leads/retention.ts';
import { deleteTicked } from '../../src/office/deletion.ts';
import { workLead } from '../../src/office/notes.ts';
import { releaseSpam } from '../../src/office/spam.ts';
import { changeStatus } from '../../src/office/status.ts';
import type { LeadStatus } from '../../src/office/store.ts';
import type { Store } from '../../src/store/index.ts';
import { contact, promise, quote, serviceArea } from '../support/fixtures.ts';
import { expectedFigures, shownFigures, type FiguresModel, type FiguresSetting } from '../support/office-figures.ts';
import { STORE_KINDS, type OpenedStore } from '../support/store-kinds.ts';

const ZONE = 'America/Los_Angeles';
/** The services the quote form offers; "Move-out clean" (as an agent may type it) is another service. */
const SERVICES = ['Standard clean', 'Deep clean', 'Move-in / move-out clean'];
/** The inbox's dates from Saturday 31 October to Sunday 1 November included: the day the clock goes back, 25 hours long. */
const RANGE = { since: new Date('2026-10-31T00:00:00-07:00'), until: new Date('2026-11-02T00:00:00-08:00') };
/** What the figures are kept by, and the range of dates the inbox counts. */
const SETTING: FiguresSetting = { timeZone: ZONE, promise: promise(), services: SERVICES, range: RANGE };

// ---- The model: the leads and caught submissions the test believes exist; what the office should be shown of them is `expectedFigures`.

/** A lead as the test believes it stored: who sent it (`phone`: its ten digits), what, when (`day`: its local day, by Intl) and how it stands. */
type Sender = { key: string; id: string; reference: string; name: string; email: string; phone: string };
type Lead = Sender & { form: 'quote' | 'support'; service?: string; receivedAt: Date; day: string; answerBy: Date; status: LeadStatus; firstContactAt?: Date };
interface Model extends FiguresModel<Lead> {
  /** Caught submissions, each with the lead it becomes when released. */
  spam: Array<{ key: string; id: string; receivedAt: Date; becomes: Lead }>;
}

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const localDay = (at: Date) => dayFormat.format(at);

// ---- The office's leads, batch by batch, each received at an instant of the office's time (its offset written out).

const CONTACT = 'a contact message';
const MARIA = { name: 'Maria Lopez', email: 'maria.lopez@example.com', phone: '(503) 555-0150' };
/** Luis shares Maria's phone number: a deletion request by that number finds his lead, which the office unticks. */
const LUIS = { name: 'Luis Herrera', email: 'luis.herrera@example.com', phone: MARIA.phone };
type Person = { name: string; email: string; phone: string };
/** A lead (or caught submission): its key, when it came, a service or a contact message (or the key of a lead it repeats), who. */
type Planned = [key: string, at: string, what: string, who: string | Person];

const BATCHES: Array<{ name: string; now: string; leads: Planned[]; caught?: Planned[]; sentAgain?: string[] }> = [
  {
    name: 'September and early October',
    now: '2026-10-09T18:00:00-07:00',
    leads: [
      ['a1', '2026-09-01T10:00-07:00', 'Standard clean', 'Ada Lark'],
      ['a2', '2026-09-06T23:58-07:00', CONTACT, 'Ben Okafor'], // two minutes before the Monday that begins the later chart
      ['a3', '2026-09-07T00:03-07:00', 'Deep clean', 'Chloe Park'],
      ['a4', '2026-09-16T14:00-07:00', 'Move-out clean', 'Ingrid Halvorsen'], // a service the form does not offer
      ['a5', '2026-10-09T17:30-07:00', CONTACT, 'Dev Shah'],
    ],
  },
  {
    name: 'the week the clock goes back, to 1:45 am standard time on Sunday 1 November',
    now: '2026-11-01T01:45:00-08:00',
    leads: [
      ['b1', '2026-10-25T23:58-07:00', 'Deep clean', 'Eva Novak'], // two minutes before Monday's midnight
      ['b2', '2026-10-26T00:02-07:00', 'Standard clean', 'Femi Adeyemi'],
      ['b3', '2026-10-31T23:59-07:00', CONTACT, 'Gus Moreau'],
      ['b4', '2026-11-01T00:01-07:00', 'Move-out clean', 'Hana Sato'],
      ['b5', '2026-11-01T01:30-07:00', 'Move-in / move-out clean', 'Ivan Petrov'], // the first 1:30 am (daylight time)
      ['b6', '2026-11-01T01:30-08:00', CONTACT, 'Jo Park'], // the second, an hour later (standard time)
    ],
    caught: [['s1', '2026-11-01T01:15-08:00', 'Deep clean', 'Knut Halvorsen']],
    sentAgain: ['b2', 'b4'], // an hour later, replayed and duplicated: neither is a new lead
  },
  {
    name: 'Sunday night and Monday morning after the clock change',
    now: '2026-11-02T00:10:00-08:00',
    leads: [
      ['b7', '2026-11-01T23:30-08:00', 'Deep clean', 'Kai Lund'], // Sunday, though Monday 00:30 by daylight time's offset
      ['b8', '2026-11-02T00:03-08:00', 'Standard clean', 'Lea Roth'],
    ],
  },
  {
    name: 'November',
    now: '2026-11-23T08:00:00-08:00',
    leads: [
      ['c1', '2026-11-11T09:00-08:00', 'Deep clean', MARIA],
      ['c2', '2026-11-13T19:00-08:00', CONTACT, MARIA],
      ['c3', '2026-11-16T11:00-08:00', 'Standard clean', LUIS],
      ['c4', '2026-11-19T16:00-08:00', 'Move-out clean', 'Mia Chen'],
      ['c5', '2026-11-20T17:45-08:00', CONTACT, 'Per Halvorsen'],
      ['c6', '2026-11-22T23:57-08:00', 'Standard clean', MARIA], // three minutes before Monday's midnight
      ['c7', '2026-11-23T00:04-08:00', 'Deep clean', 'Quinn Ito'],
    ],
    caught: [
      ['s2', '2026-11-20T17:55-08:00', 'c5', 'Per Halvorsen'], // c5's message again, caught ten minutes later
      ['s3', '2026-11-21T12:00-08:00', 'Standard clean', MARIA],
    ],
  },
  {
    name: 'today, Tuesday 24 November',
    now: '2026-11-24T09:00:00-08:00',
    leads: [
      ['d1', '2026-11-23T23:58-08:00', 'Standard clean', 'Rosa Diaz'], // two minutes before today's midnight
      ['d2', '2026-11-24T00:01-08:00', CONTACT, 'Sam Wu'],
      ['d3', '2026-11-24T08:15-08:00', 'Move-out clean', 'Tia Moss'],
    ],
    caught: [['s4', '2026-11-24T00:03-08:00', CONTACT, 'Uma Reyes']],
  },
];
const NOW = new Date(BATCHES.at(-1)!.now);
/** Later views: 6 pm today, when Monday's leads are due, and a second after; past midnight (Wednesday); the next week. */
const LATER = ['2026-11-24T18:00:00-08:00', '2026-11-24T18:00:01-08:00', '2026-11-25T00:00:30-08:00', '2026-11-30T00:00:30-08:00'].map((s) => new Date(s));
const ACTOR = 'office@example.com';
const business = { promise: promise(), serviceArea: serviceArea() };
const api = { receivedVia: '/api/v1/leads', channel: 'api' as const, clientAddress: '198.51.100.7', userAgent: 'test' };
const webForm = { channel: 'web-form' as const, clientAddress: '198.51.100.8', userAgent: 'Mozilla/5.0' };

class Office {
  readonly model: Model = {
    leads: [],
    spam: [],
    searches: [
      { text: 'Halvors', finds: (l) => l.name.toLowerCase().includes('halvors') }, // a name's fragment
      { text: '5035550150', finds: (l) => l.phone === '5035550150' }, // Maria's and Luis's phone, its digits
    ],
  };
  readonly bodies = new Map<string, Record<string, unknown>>();
  readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  /** The office's figures equal the model's at each of `nows`. */
  async check(step: string, ...nows: Date[]) {
    const texts = this.model.searches.map((s) => s.text);
    for (const now of nows)
      expect(await shownFigures(this.store, now, SETTING, texts), `${step}, seen at ${now.toISOString()}`).toEqual(expectedFigures(this.model, now, SETTING));
  }

  lead = (key: string): Lead => this.model.leads.find((l) => l.key === key)!;

  /** A planned lead: its body as sent, and the lead the model expects of it. */
  plan([key, at, what, who]: Planned): { body: Record<string, unknown>; lead: Lead } {
    const [receivedAt, phone] = [new Date(at), `(503) 555-01${60 + this.bodies.size}`];
    const person = typeof who === 'string' ? { name: who, email: `${who.toLowerCase().replace(' ', '.')}@example.com`, phone } : who;
    const sent = () => (what === CONTACT ? contact(person) : quote({ ...person, service: what, consentTimestamp: receivedAt.toISOString() }));
    const body = this.bodies.get(what) ?? sent();
    this.bodies.set(key, body);
    const [form, service] = body.formType === 'support' ? (['support', undefined] as const) : (['quote', String(body.service)] as const);
    const [name, email, digits] = [String(body.name), String(body.email), String(body.phone).replace(/\D/g, '')];
    const [day, due] = [localDay(receivedAt), answerBy(receivedAt, promise())];
    return { body, lead: { key, id: '', reference: '', name, email, phone: digits, form, service, receivedAt, day, answerBy: due, status: 'new' } };
  }

  /** Every batch through the one intake, a replay and a duplicate taking nothing, caught submissions kept aside; checked after each. */
  async takeIn() {
    for (const batch of BATCHES) {
      for (const planned of batch.leads) {
        const { body, lead } = this.plan(planned);
        const idempotency = () => ({ key: lead.key, boundTo: body });
        const outcome = await takeLead(this.store, { body, meta: { ...api, now: lead.receivedAt }, business, idempotency });
        if (outcome.kind !== 'created') throw new Error(`${lead.key}: ${outcome.kind}`);
        const { id, reference } = outcome.receipt;
        this.model.leads.push({ ...lead, id, reference });
        if (lead.key === 'c1') this.model.searches.push({ text: reference, finds: (l) => l.reference === reference });
      }
      for (const key of batch.sentAgain ?? []) {
        const [body, meta] = [this.bodies.get(key)!, { ...api, now: new Date(this.lead(key).receivedAt.getTime() + 3_600_000) }];
        const replay = await takeLead(this.store, { body, meta, business, idempotency: () => ({ key, boundTo: body }) });
        expect([replay.kind, (await takeLead(this.store, { body, meta, business })).kind]).toEqual(['replayed', 'duplicate']);
      }
      for (const planned of batch.caught ?? []) {
        const { body, lead } = this.plan(planned);
        const [id, reference, receivedAt] = [randomUUID(), newReference(lead.form), lead.receivedAt];
        const meta = { ...webForm, receivedVia: lead.form === 'quote' ? '/quote' : '/contact', answerBy: lead.answerBy.toISOString() };
        const spam = { id, reference, formType: lead.form, receivedAt, reason: 'sent faster than a person fills it in' as const, body };
        const person = { emailNormalised: lead.email.toLowerCase(), phoneE164: `+1${lead.phone}` };
        await this.store.keepSpam({ ...spam, meta }, person);
        this.model.spam.push({ key: lead.key, id, receivedAt, becomes: { ...lead, reference } });
        this.model.searches.push({ text: reference, finds: (l) => l.reference === reference });
      }
      await this.check(`after the intake of ${batch.name}`, new Date(batch.now));
    }
  }

  /** The office moves a lead on, from the inbox's buttons (`changeStatus`) or from the lead's own form (`workLead`, with a note). */
  async setStatus(key: string, to: LeadStatus, at: Date | 'at its answer-by', from: 'inbox' | 'lead page') {
    const lead = this.lead(key);
    const when = at === 'at its answer-by' ? lead.answerBy : at;
    const changed =
      from === 'inbox'
        ? await changeStatus(this.store, { reference: lead.reference, status: to }, ACTOR, when)
        : await workLead(this.store, { reference: lead.reference, status: to, note: 'Called back.' }, ACTOR, when);
    expect(changed).toMatchObject({ kind: from === 'inbox' ? 'changed' : 'worked', from: lead.status });
    if (to !== 'new') lead.firstContactAt ??= when;
    lead.status = to;
    await this.check(`after ${key} was set to ${to} from the ${from}`, NOW);
  }

  /** First contacts in time and late, leads sent back to `new` (past due, and not yet), a status set twice, `done` back to `contacted`. */
  async work() {
    const at = (s: string) => new Date(s);
    await this.setStatus('a3', 'contacted', at('2026-09-07T10:00-07:00'), 'inbox');
    await this.setStatus('a4', 'done', at('2026-09-18T09:00-07:00'), 'lead page'); // late: due Thursday 6 pm
    await this.setStatus('b2', 'contacted', at('2026-10-26T09:30-07:00'), 'inbox');
    await this.setStatus('b2', 'new', at('2026-10-27T11:00-07:00'), 'lead page'); // waits again, past its answer-by; its first contact stays
    await this.setStatus('b5', 'contacted', at('2026-11-02T10:00-08:00'), 'inbox'); // working minutes across the clock change
    await this.setStatus('b6', 'done', at('2026-11-03T09:00-08:00'), 'lead page'); // late
    await this.setStatus('b7', 'contacted', 'at its answer-by', 'inbox'); // in time, to the millisecond
    await this.setStatus('c1', 'contacted', at('2026-11-11T09:45-08:00'), 'lead page');
    await this.setStatus('c1', 'done', at('2026-11-12T10:00-08:00'), 'inbox');
    await this.setStatus('c1', 'done', at('2026-11-12T10:05-08:00'), 'inbox'); // the same status again
    await this.setStatus('c4', 'contacted', at('2026-11-23T08:30-08:00'), 'lead page'); // late: due Friday 6 pm
    await this.setStatus('c4', 'done', at('2026-11-23T09:00-08:00'), 'inbox');
    await this.setStatus('c4', 'contacted', at('2026-11-23T09:30-08:00'), 'lead page'); // done back to contacted
    await this.setStatus('c7', 'contacted', at('2026-11-23T08:10-08:00'), 'inbox');
    await this.setStatus('d3', 'contacted', at('2026-11-24T08:45-08:00'), 'lead page');
    await this.setStatus('d3', 'new', at('2026-11-24T08:55-08:00'), 'inbox'); // back to new before it is due: its first contact counts
    // The model holds every case the figures tell apart: in time, answered late, waiting past and not past the answer-by.
    const kinds = this.model.leads.map((l) =>
      l.firstContactAt ? (l.firstContactAt <= l.answerBy ? 'in time' : 'answered late') : l.answerBy < NOW ? 'waiting late' : 'waiting',
    );
    expect(new Set(kinds)).toEqual(new Set(['in time', 'answered late', 'waiting late', 'waiting']));
  }
}

type Opened = OpenedStore;
const kinds = STORE_KINDS;

for (const kind of kinds) {
  describe.skipIf(kind.skip)(`on the ${kind.name} store, the counts, the charts and the search the office is shown stay exact`, () => {
    let opened: Opened;
    let office: Office;
    beforeEach(async () => {
      opened = await kind.open();
      await opened.store.keepOfficeClock({ promise: promise(), services: SERVICES });
      office = new Office(opened.store);
    });
    afterEach(async () => opened?.cleanup());

    it('through intake, batch by batch, across local midnights, the Monday boundary and the clock change; a replay and a duplicate add nothing', async () => {
      await office.takeIn();
      await office.check('once every lead is in', NOW, ...LATER);
    });

    it('through first contacts in time and late, leads sent back to new, and as the answer-by, midnight and a new week pass', async () => {
      await office.takeIn();
      await office.work();
      await office.check('once the leads were worked', NOW, ...LATER);
    });

    it('through a deletion on request by e-mail and phone, the other holder of the number unticked and kept', async () => {
      await office.takeIn();
      await office.work();
      const { model, store } = office;
      const request = [personOf('email', MARIA.email)!, personOf('phone', MARIA.phone)!];
      const hers = model.leads.filter((l) => l.email === MARIA.email);
      const chosen = { leads: hers.map((l) => l.id), suspectedSpam: [model.spam.find((s) => s.key === 's3')!.id] };
      const removed = await deleteTicked({ records: store, inbox: store }, request, ACTOR, NOW, chosen);
      expect(removed).toMatchObject({ leads: 3, suspectedSpam: 1, kept: { leads: 1, suspectedSpam: 0 } });
      model.leads = model.leads.filter((l) => !hers.includes(l));
      model.spam = model.spam.filter((s) => s.key !== 's3');
      await office.check('after the deletion', NOW, ...LATER);
      // A change sent from a page still showing a deleted lead changes nothing.
      expect(await changeStatus(store, { reference: hers[0]!.reference, status: 'contacted' }, ACTOR, NOW)).toEqual({ kind: 'no such lead' });
      await office.check('after a change to a deleted lead', NOW);
    });

    it('through the retention purge, which takes leads of the chart’s first week and old caught submissions', async () => {
      await office.takeIn();
      await office.work();
      const { model, store } = office;
      const cutoffs = purgeCutoffs(NOW, 75);
      const purged = await purge(store, cutoffs, async () => {});
      const [gone, spamGone] = [model.leads.filter((l) => l.receivedAt < cutoffs.leadsBefore), model.spam.filter((s) => s.receivedAt < cutoffs.spamBefore)];
      expect([gone.map((l) => l.key), spamGone.map((s) => s.key)]).toEqual([['a1', 'a2', 'a3'], ['s1']]);
      expect(purged).toMatchObject({ leads: 3, suspectedSpam: 1 });
      model.leads = model.leads.filter((l) => !gone.includes(l));
      model.spam = model.spam.filter((s) => !spamGone.includes(s));
      await office.check('after the purge', NOW, ...LATER);
      expect(await purge(store, cutoffs, async () => {})).toMatchObject({ leads: 0, suspectedSpam: 0 });
      await office.check('after a purge with nothing left to remove', NOW);
    });

    it('through the release of caught submissions: into the clock change’s week, into today, and one the inbox already had', async () => {
      await office.takeIn();
      await office.work();
      const { model, store } = office;
      for (const key of ['s1', 's4', 's2']) {
        const caught = model.spam.find((s) => s.key === key)!;
        const release = await releaseSpam(store, caught.id, ACTOR, serviceArea(), NOW, promise());
        model.spam = model.spam.filter((s) => s !== caught);
        if (key === 's2') expect(release).toEqual({ kind: 'already_a_lead', reference: office.lead('c5').reference });
        else {
          expect(release).toMatchObject({ kind: 'released', reference: caught.becomes.reference });
          model.leads.push(caught.becomes);
        }
        await office.check(`after the release of ${key}`, NOW, ...LATER);
      }
      // A released lead is worked as any other: its first contact (late) counts in the week it was received.
      await office.setStatus('s1', 'contacted', NOW, 'inbox');
      await office.check('once the released lead was contacted', NOW, ...LATER);
    });
  });
}
