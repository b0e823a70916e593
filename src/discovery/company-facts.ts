/** What the documents state of the company itself, from `content/company.yaml`. */
import type { CallBackPromise } from '../leads/next-step.ts';
import { formatUsPhone } from '../leads/phone.ts';
import { servedPostalCodes } from '../leads/service-area.ts';
import type { Company } from '../site/from-content.ts';

export interface CompanyFacts {
  name: string;
  /** The office's phone, as people write it: "(503) 555-0100". */
  phone: string;
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
    serviceArea: company.area,
    postalCodes: servedPostalCodes(company.serviceArea),
    promise: company.promise,
  };
}
