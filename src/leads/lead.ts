/** The lead record the service stores, and how a valid submission becomes one. */
import { createHash, randomUUID } from 'node:crypto';
import type { ValidLead } from './validate.ts';
import type { FormType } from './schema.ts';
import { newReference } from './reference.ts';
import { agreedWays, type ContactWay } from './contact-ways.ts';
import { inServiceArea, type ServiceArea } from './service-area.ts';

/** How a lead reached the company: the public API, or the company's own web form on this site. */
export type Channel = 'api' | 'web-form';

/** The consent disclosure a person saw on the web form: its exact text, and the version naming it. */
export interface Disclosure {
  /** A hash of the text: it changes whenever the text does. */
  version: string;
  text: string;
}

/** What the customer's consent rests on, recorded with every lead. */
export interface ConsentEvidence {
  /** How the lead came. */
  channel: Channel;
  /** The version of the disclosure shown beside the consent checkbox (web form); `null` from the API. */
  disclosureVersion: string | null;
  /** `true` for a quote request (the only accepted value); on a contact message, `true` when sent and `null` when left out. */
  communicationsConsent: boolean | null;
  /** The ways agreed to: `allowedContact`'s, else all three. Absent without a consent, and on a lead kept before (all three). */
  ways?: ContactWay[];
  consentTimestamp: string | null;
  pageUrl: string | null;
  /** When the server received the submission (UTC). */
  serverTime: string;
  clientAddress: string;
  userAgent: string | null;
}

/** A field's value as stored: text, consent, a list (the preferred dates, the ways allowed), or a window of days. */
export type LeadValue = string | boolean | string[] | { from: string; to: string };

/** A lead as stored: the validated fields as sent, normalised contact details, and consent evidence. */
export interface LeadRecord {
  id: string;
  /** The short reference people read out (`Q-7K3M-2P`): unique, made by `newReference`. */
  reference: string;
  formType: FormType;
  receivedAt: string;
  /** The path it came by: `/api/v1/leads` or the deprecated `/api/leads`. */
  receivedVia: string;
  /** Validated fields as sent (trimmed), `phone` included as the customer typed it. */
  fields: Record<string, LeadValue>;
  phoneE164: string;
  emailNormalised: string;
  /** Hash of form, normalised contact and content: equal for duplicates. */
  fingerprint: string;
  consent: ConsentEvidence;
  /** Whether the home's ZIP code (`postalCode`) was in the service area when the lead came; absent without one. */
  inServiceArea?: boolean;
  /**
   * The instant the customer was promised an answer by (UTC), as `whatHappensNext` named it when the
   * lead was acknowledged: stored with it, never worked out again. Absent only on a record being made.
   */
  answerBy?: string;
  /** The disclosure `consent.disclosureVersion` names, stored once per version beside the leads. */
  disclosure?: Disclosure;
}

/** Where and how a submission arrived: facts only the transport knows. */
export interface SubmissionMeta {
  /** The path it came by (the API path, or the web form's page). */
  receivedVia: string;
  channel: Channel;
  /** The disclosure the person saw (web form only). */
  disclosure?: Disclosure;
  /** The answer-by instant the sender was given, kept with a submission held back as suspected spam. */
  answerBy?: string;
  clientAddress: string;
  userAgent: string | null;
  now: Date;
}

/** Consent evidence as stored: leads stored before the web forms existed all came by the API. */
export function storedConsent(stored: Omit<ConsentEvidence, 'channel' | 'disclosureVersion'> & Partial<ConsentEvidence>): ConsentEvidence {
  return { channel: 'api', disclosureVersion: null, ...stored };
}

/** The version of a disclosure text: the first 16 hex digits of its SHA-256. */
export function disclosureOf(text: string): Disclosure {
  return { version: createHash('sha256').update(text).digest('hex').slice(0, 16), text };
}

const fold = (s: string) => s.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

/** The longest user agent kept as evidence; real ones are a few hundred characters. */
export const MAX_USER_AGENT_LENGTH = 512;

/**
 * The user agent as evidence: control characters (C0, C1 such as a terminal's CSI) and
 * bidirectional overrides removed, white space folded, at most 512 characters. A header's bytes are
 * read as Latin-1 by HTTP, so `\x9b` arrives as U+009B: it is removed like every other C1 character.
 */
export function cleanUserAgent(raw: string | null): string | null {
  if (raw === null) return null;
  const clean = raw
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_USER_AGENT_LENGTH);
  return clean === '' ? null : clean;
}
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * A lead's id: a UUID of version 7 (RFC 9562), the millisecond it was received first and 74 random
 * bits after, so that each new lead's key in the store comes after the last one's instead of at a
 * random place in its index (decision 0027). Made from a random version 4 UUID, whose first 48 bits
 * and version give way to the time and 7.
 */
export function leadId(receivedAt: Date): string {
  const time = receivedAt.getTime().toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}

/** Builds the record of a valid submission, with a fresh opaque id; `area` judges its ZIP code, if it has one. */
export function toLeadRecord(lead: ValidLead, meta: SubmissionMeta, area?: ServiceArea): LeadRecord {
  const { phone, email } = lead.data;
  const emailNormalised = email.toLowerCase();
  const receivedAt = meta.now.toISOString();
  const base = {
    id: leadId(meta.now),
    reference: newReference(lead.formType),
    receivedAt,
    receivedVia: meta.receivedVia,
    phoneE164: phone.e164,
    emailNormalised,
  };
  const evidence = {
    channel: meta.channel,
    disclosureVersion: meta.disclosure?.version ?? null,
    serverTime: receivedAt,
    clientAddress: meta.clientAddress,
    userAgent: cleanUserAgent(meta.userAgent),
  };
  const disclosure = meta.disclosure && { disclosure: meta.disclosure };
  // The consent, with the ways it agreed to (the customer's limits, else all three).
  const consentOf = (d: { communicationsConsent?: true; allowedContact?: ContactWay[]; consentTimestamp?: string; pageUrl?: string }): ConsentEvidence => ({
    ...{ communicationsConsent: d.communicationsConsent ?? null, ...(d.communicationsConsent && { ways: agreedWays(d.allowedContact) }) },
    ...{ consentTimestamp: d.consentTimestamp ?? null, pageUrl: d.pageUrl ?? null, ...evidence },
  });
  if (lead.formType === 'quote') {
    const d = lead.data;
    // Where and when, each only when sent (an empty list of dates is no preference).
    const whereAndWhen = {
      ...(d.postalCode !== undefined && { postalCode: d.postalCode }),
      ...(d.preferredDates?.length && { preferredDates: d.preferredDates }),
      ...(d.preferredWindow !== undefined && { preferredWindow: d.preferredWindow }),
      ...(d.frequency !== undefined && { frequency: d.frequency }),
      ...(d.preferredContact !== undefined && { preferredContact: d.preferredContact }),
      ...(d.allowedContact !== undefined && { allowedContact: d.allowedContact }),
      ...(d.timeOfDay !== undefined && { timeOfDay: d.timeOfDay }),
    };
    const fields: Record<string, LeadValue> = {
      name: d.name,
      phone: phone.sent,
      email: d.email,
      bedrooms: d.bedrooms,
      bathrooms: d.bathrooms,
      service: d.service,
      notes: d.notes,
      communicationsConsent: d.communicationsConsent,
      ...(d.consentTimestamp !== undefined && { consentTimestamp: d.consentTimestamp }),
      ...(d.pageUrl !== undefined && { pageUrl: d.pageUrl }),
      ...whereAndWhen,
    };
    // Another home or other days make another request; a lead without them keeps the fingerprint it always had.
    const content = [d.bedrooms, d.bathrooms, fold(d.service), fold(d.notes), ...(Object.keys(whereAndWhen).length ? [whereAndWhen] : [])];
    return {
      ...base,
      formType: 'quote',
      fields,
      ...disclosure,
      fingerprint: sha256(JSON.stringify(['quote', fold(d.name), emailNormalised, phone.e164, ...content])),
      ...(d.postalCode !== undefined && area && { inServiceArea: inServiceArea(area, d.postalCode) }),
      consent: consentOf(d),
    };
  }
  const d = lead.data;
  // The limits and the days of a visit to move: another message when they differ; one without them keeps its fingerprint.
  const limits = {
    ...(d.preferredContact !== undefined && { preferredContact: d.preferredContact }),
    ...(d.allowedContact !== undefined && { allowedContact: d.allowedContact }),
    ...(d.preferredDates?.length && { preferredDates: d.preferredDates }),
    ...(d.preferredWindow !== undefined && { preferredWindow: d.preferredWindow }),
  };
  const fields: Record<string, LeadValue> = {
    formType: 'support',
    name: d.name,
    email: d.email,
    phone: phone.sent,
    helpWith: d.helpWith,
    message: d.message,
    ...(d.communicationsConsent !== undefined && { communicationsConsent: d.communicationsConsent }),
    ...(d.consentTimestamp !== undefined && { consentTimestamp: d.consentTimestamp }),
    ...(d.pageUrl !== undefined && { pageUrl: d.pageUrl }),
    ...limits,
  };
  const content = [fold(d.helpWith), fold(d.message), ...(Object.keys(limits).length ? [limits] : [])];
  return {
    ...base,
    formType: 'support',
    fields,
    ...disclosure,
    // The consent evidence is not the message's content: the same message with or without it is a duplicate.
    fingerprint: sha256(JSON.stringify(['support', fold(d.name), emailNormalised, phone.e164, ...content])),
    consent: consentOf(d),
  };
}

/** Hash of a parsed body, independent of member order and white space: what an Idempotency-Key is bound to. */
export function requestHash(body: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return sha256(JSON.stringify(canonical(body)));
}

/** The body of a 201: what the caller learns of the stored lead. */
export interface Receipt {
  id: string;
  reference: string;
  formType: FormType;
  status: 'received';
  receivedAt: string;
  /** Present when a ZIP code was sent: whether the company serves it. */
  inServiceArea?: boolean;
}

/** The 201 body of a stored lead. */
export function receiptOf(lead: LeadRecord): Receipt {
  const { id, reference, formType, receivedAt } = lead;
  return { id, reference, formType, status: 'received', receivedAt, ...(lead.inServiceArea !== undefined && { inServiceArea: lead.inServiceArea }) };
}
