/**
 * What the site makes of the editors' content, once it is read and checked: the company's facts
 * (`content/company.yaml`) and what the forms offer (`content/forms/`). Pure: Astro's collections
 * (`./company.ts`, `./form-words.ts`) and the content read outside a build
 * (`src/content-check/read.ts`, for the quick tests) give it the same data.
 */
import type { CallBackPromise, ClosedDay } from '../leads/next-step.ts';
import { dateFormat } from '../lib/time.ts';
import { toE164UsPhone } from '../leads/phone.ts';
import { consentSentence } from '../leads/contact-ways.ts';
import type { ServiceArea } from '../leads/service-area.ts';
import { priceGuide, type HomeSize, type PriceRange } from '../prices.ts';
import type { Offer } from '../service-facts.ts';
import { hoursLine, readDays, readHours } from './opening-hours.ts';

/** The company, as `content/company.yaml` describes it. */
export interface Company {
  name: string;
  /** The office's phone as people read it (never broken over two lines), and as a `tel:` link dials it (E.164). */
  phone: string;
  tel: string;
  email: string;
  /** When the office answers the phone, a line each: "Monday to Friday, 8 am to 6 pm". */
  hours: string[];
  /** What it promises about answering a request, for the sentence that names the day. */
  promise: CallBackPromise;
  /** The ZIP codes served, by town. */
  serviceArea: ServiceArea;
  /** The towns in a sentence: "Portland, Oregon and Vancouver, Washington". */
  area: string;
  timeZone: string;
}

/** The closed days still to come on `now`'s day in the office's time zone (today's included), in date order. */
export function closedDaysAhead(promise: CallBackPromise, now = new Date()): ClosedDay[] {
  const today = dateFormat('en-CA', { timeZone: promise.timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  return (promise.closed ?? []).filter((c) => c.date >= today).sort((a, b) => a.date.localeCompare(b.date));
}

/** A closed day in words: "Friday, December 25 (Christmas Day)". */
export function closedDayWords(day: ClosedDay): string {
  const date = dateFormat('en-US', { timeZone: 'UTC', weekday: 'long', month: 'long', day: 'numeric' }).format(new Date(`${day.date}T00:00:00Z`));
  return day.name ? `${date} (${day.name})` : date;
}

/** What this reads of `content/company.yaml`'s entry, once its rules (`src/content-check/facts.ts`) have passed. */
export interface CompanyData {
  name: string;
  phone: string;
  email: string;
  timeZone: string;
  hours: Array<{ days: string; opens: string; closes: string }>;
  answersWithin: { workingDays: number; on: string };
  serviceArea: Array<{ town: string; postalCodes: string[] }>;
  closedDays?: Array<{ date: Date; name?: string }>;
}

/** What this reads of each form's words (`src/content-check/pages.ts`). */
export interface QuoteFormData {
  services: string[];
  consent: string;
  prices?: Record<string, Partial<Record<HomeSize, PriceRange>>>;
}
export interface ContactFormData {
  topics: string[];
}

/** The company from its checked entry. */
export function companyOf(data: CompanyData): Company {
  const { answersWithin, hours, serviceArea, closedDays = [], ...facts } = data;
  const promise: CallBackPromise = {
    companyName: facts.name,
    timeZone: facts.timeZone,
    workingDays: answersWithin.workingDays,
    on: readDays(answersWithin.on)!,
    hours: hours.map((h) => readHours(h)!),
    // A date as YAML reads it is the UTC midnight of the day written.
    closed: closedDays.map((c) => ({ date: c.date.toISOString().slice(0, 10), ...(c.name && { name: c.name }) })),
  };
  return {
    ...facts,
    phone: facts.phone.replaceAll(' ', '\u00a0').replaceAll('-', '\u2011'),
    tel: `tel:${toE164UsPhone(facts.phone)}`,
    hours: hours.map(hoursLine),
    promise,
    serviceArea: { towns: serviceArea },
    area: new Intl.ListFormat('en-US', { type: 'conjunction' }).format(serviceArea.map((t) => t.town)),
  };
}

/** The quote form's consent text, with the company's name in it; its ways (`{ways}`) still to be said. */
export const consentTextOf = (form: QuoteFormData, companyName: string) => form.consent.replaceAll('{company}', companyName);

/** What the forms offer, for the documents agents read. */
export function offerOf(quote: QuoteFormData, contact: ContactFormData, companyName: string): Offer {
  const prices = priceGuide(quote.services, quote.prices);
  return {
    services: quote.services,
    contactTopics: contact.topics,
    consentText: consentSentence(consentTextOf(quote, companyName), undefined),
    ...(prices && { prices }),
  };
}

/** The closed days still to come, in a sentence under the hours: "Closed on Friday, December 25 (Christmas Day)."; empty without one. */
export function closedDaysSentence(promise: CallBackPromise, now = new Date()): string {
  const days = closedDaysAhead(promise, now).map(closedDayWords);
  return days.length === 0 ? '' : `Closed on ${new Intl.ListFormat('en-US', { type: 'conjunction' }).format(days)}.`;
}
