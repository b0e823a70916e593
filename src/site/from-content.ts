/**
 * What the site makes of the editors' content, once it is read and checked: the company's facts
 * (`content/company.yaml`) and what the forms offer (`content/forms/`). Pure: Astro's collections
 * (`./company.ts`, `./form-words.ts`) and the content read outside a build
 * (`src/content-check/read.ts`, for the quick tests) give it the same data.
 */
import type { CallBackPromise } from '../leads/next-step.ts';
import { toE164UsPhone } from '../leads/phone.ts';
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

/** What this reads of `content/company.yaml`'s entry, once its rules (`src/content-check/facts.ts`) have passed. */
export interface CompanyData {
  name: string;
  phone: string;
  email: string;
  timeZone: string;
  hours: Array<{ days: string; opens: string; closes: string }>;
  answersWithin: { workingDays: number; on: string };
  serviceArea: Array<{ town: string; postalCodes: string[] }>;
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
  const { answersWithin, hours, serviceArea, ...facts } = data;
  const promise: CallBackPromise = {
    companyName: facts.name,
    timeZone: facts.timeZone,
    workingDays: answersWithin.workingDays,
    on: readDays(answersWithin.on)!,
    hours: hours.map((h) => readHours(h)!),
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

/** The quote form's consent text, with the company's name in it. */
export const consentTextOf = (form: QuoteFormData, companyName: string) => form.consent.replaceAll('{company}', companyName);

/** What the forms offer, for the documents agents read. */
export function offerOf(quote: QuoteFormData, contact: ContactFormData, companyName: string): Offer {
  const prices = priceGuide(quote.services, quote.prices);
  return { services: quote.services, contactTopics: contact.topics, consentText: consentTextOf(quote, companyName), ...(prices && { prices }) };
}
