/**
 * What the soak sent and what it was told: every lead (by the door it took, with the strings found in no other lead),
 * every caught submission, every refusal, every office change with what it must have left in the store, and whatever
 * went wrong on the way. The verdict (`verify.ts`) sets the store against it.
 */
import type { LeadStatus } from '../../src/office/store.ts';

/** How a lead was sent: the API (its path, or its deprecated alias) or a web form's page without JavaScript. */
export type Door = '/api/v1/leads' | '/api/leads' | '/quote' | '/contact';

/** What the office believes of one lead, given what it was told: each set holds every value the store may hold now. */
export interface OfficeView {
  status: Set<LeadStatus>;
  /** Who has it: an account's e-mail, or `null` for nobody. */
  owner: Set<string | null>;
  /** The texts of the notes acknowledged (each stored exactly once), and of those whose answer was lost (at most once). */
  notes: string[];
  maybeNotes: string[];
  /** Whether a first contact must be recorded (a change to contacted or done was acknowledged), or may be (its answer was lost). */
  contacted: 'yes' | 'maybe' | 'no';
  /** An answer was lost: what the store holds of it is no longer known exactly, so the office leaves it alone. */
  uncertain: boolean;
  /** One of the office's accounts is working on it now. */
  busy: boolean;
}

/** A lead the soak sent, and what became of it. */
export interface SentLead {
  n: number;
  door: Door;
  form: 'quote' | 'support';
  /** Found in this lead alone: its e-mail address, and a marker in its notes or message. */
  email: string;
  marker: string;
  /** Sent and not yet answered; acknowledged (201, or the form's page with its reference), refused (4xx, nothing stored), or caught by a spam trap. */
  outcome: 'sent' | 'acknowledged' | 'refused' | 'caught' | 'caught, answer lost';
  id?: string;
  reference?: string;
  /** How many times it was sent again, with the same key, after an answer lost to a kill (or a 429 or 503). */
  resent: number;
  /** Deleted on request (acknowledged), or perhaps (the answer to the deletion was lost). */
  deleted?: 'yes' | 'maybe';
  /** Another lead was sent as its duplicate: it is kept from deletion, so that the duplicate stays refused. */
  pinned?: boolean;
  /** This one is that duplicate (its e-mail address and marker are the first's). */
  duplicateOf?: SentLead;
  /** A caught submission: released to the inbox (acknowledged), or perhaps. */
  released?: 'yes' | 'maybe';
  office: OfficeView;
  /** A quote request's body as the API took it (for a duplicate). */
  body?: Record<string, unknown>;
}

/** An office change whose answer came: what it was, by whom, on which lead (its reference, for the audit trail). */
export interface OfficeChange {
  kind: 'status' | 'note' | 'take' | 'give' | 'delete' | 'release' | 'purge';
  actor: string;
  reference?: string;
}

/** Leads stored through the store behind the server's back, received past retention, for a purge to remove. */
export interface OldLead {
  email: string;
  marker: string;
  /** An acknowledged purge ran after it was stored. */
  purged: boolean;
  /** The purge said the write-ahead log still holds its rows (a reader held its emptying off): its bytes may stay there a while. */
  erasePending?: boolean;
}

export class Ledger {
  readonly leads: SentLead[] = [];
  /** Acknowledged leads the office may work (and caught submissions it may release), in the order they came. */
  readonly acknowledged: SentLead[] = [];
  readonly caught: SentLead[] = [];
  readonly old: OldLead[] = [];
  /** Office changes acknowledged, refused (nothing changed: a 429 or a 503 in words), and whose answer was lost. */
  readonly changes: OfficeChange[] = [];
  changesRefused = 0;
  changesUnknown = 0;
  /** Requests whose answer was lost (a kill, a reset), and resent. */
  answersLost = 0;
  /** What should never happen, in words, once each with how often. */
  readonly anomalies = new Map<string, number>();
  /** What is worth saying but breaks no promise (a purge's emptying of the log held off, which it says itself). */
  readonly notes = new Map<string, number>();
  /** Requests in flight now: what a kill cuts. */
  inFlight = { leads: 0, office: 0 };
  private counter = 0;
  /** Sets this run's strings apart from every other run's. */
  readonly run: string;

  constructor(run: string) {
    this.run = run;
  }

  /** A new lead's number and the strings found in it alone. */
  next(door: Door, form: SentLead['form']): SentLead {
    const n = ++this.counter;
    const lead: SentLead = {
      n,
      door,
      form,
      email: `soak.${this.run}.${n}@example.com`,
      marker: `[soak ${this.run} lead ${n}]`,
      outcome: 'sent',
      resent: 0,
      office: { status: new Set(['new']), owner: new Set([null]), notes: [], maybeNotes: [], contacted: 'no', uncertain: false, busy: false },
    };
    this.leads.push(lead);
    return lead;
  }

  /** A new old lead's strings (`old<k>` in place of a number), kept in `old` until a purge removes it. */
  nextOld(): OldLead {
    const k = this.old.length;
    const old = { email: `soak.${this.run}.old${k}@example.com`, marker: `[soak ${this.run} old ${k}]`, purged: false };
    this.old.push(old);
    return old;
  }

  anomaly(what: string): void {
    this.anomalies.set(what, (this.anomalies.get(what) ?? 0) + 1);
  }

  note(what: string): void {
    this.notes.set(what, (this.notes.get(what) ?? 0) + 1);
  }

  /** A lead the office may work now, chosen with `r` among those acknowledged (`deletable`: none kept for a duplicate). */
  pick(r: () => number, { deletable = false } = {}): SentLead | undefined {
    const pool = this.acknowledged;
    for (let tries = 0; tries < 20 && pool.length > 0; tries++) {
      const lead = pool[Math.floor(r() * pool.length)]!;
      if (lead.deleted || lead.office.uncertain || lead.office.busy || (deletable && lead.pinned)) continue;
      return lead;
    }
    return undefined;
  }
}
