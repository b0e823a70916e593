/** What the documents state of the company itself, from `content/company.yaml`. */
import { WEEKDAYS, type CallBackPromise } from '../leads/next-step.ts';
import { formatUsPhone } from '../leads/phone.ts';
import { servedPostalCodes } from '../leads/service-area.ts';
import type { Company } from '../site/from-content.ts';

export interface CompanyFacts {
  name: string;
  /** The office's phone, as people write it: "(503) 555-0100". */
  phone: string;
  /** The office's e-mail address. */
  email: string;
  /** The cities the company cleans in, in a sentence: "Portland, Oregon and Vancouver, Washington". */
  serviceArea: string;
  /** The ZIP codes it serves, in the editors' order. */
  postalCodes: readonly string[];
  /** What it promises about answering a request: the examples' `whatHappensNext`. */
  promise: CallBackPromise;
}

/** The company as the documents state it: its phone written plainly (a page's no-break spaces are for browsers). */
export function documentedCompany(company: Company): CompanyFacts {
  return {
    name: company.name,
    phone: formatUsPhone(company.tel.replace(/^tel:/, '')),
    email: company.email,
    serviceArea: company.area,
    postalCodes: servedPostalCodes(company.serviceArea),
    promise: company.promise,
  };
}

/** Days of the week in words: a run of days as "Monday to Friday", others listed. */
function daysWords(days: readonly number[]): string {
  const sorted = [...new Set(days)].sort((a, b) => a - b);
  const run = sorted.length > 2 && sorted.every((d, i) => i === 0 || d === sorted[i - 1]! + 1);
  if (run) return `${WEEKDAYS[sorted[0]!]} to ${WEEKDAYS[sorted.at(-1)!]}`;
  const names = sorted.map((d) => WEEKDAYS[d]!);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'no day');
}

/**
 * The company's time, in one sentence every document states once: its time zone (in which
 * `preferredDates` and the promise are counted) and what a working day is.
 */
export function companyTimeWords(promise: Pick<CallBackPromise, 'timeZone' | 'on'>): string {
  return (
    `The company's days and times are those of its time zone, ${promise.timeZone}; a working day is one of the days ` +
    `of its promise (${daysWords(promise.on)}) on which the office is not closed.`
  );
}
