/**
 * The words of the two web forms, as editors wrote them (`content/forms/`, `content/company.yaml`),
 * ready for the page and for the evidence: the consent disclosure with the company's name in it,
 * and the version that names that exact text.
 */
import { getEntry, type CollectionEntry } from 'astro:content';
import { disclosureOf, type Disclosure } from '../leads/lead.ts';
import { consentSentence } from '../leads/contact-ways.ts';
import type { Offer } from '../service-facts.ts';
import { priceGuide, type PriceGuide } from '../prices.ts';
import { company as companyFacts, type Company } from './company.ts';
import { consentTextOf, offerOf, type ContactFormData, type QuoteFormData } from './from-content.ts';

import { WEB_FORMS, type WebForm } from './forms.ts';

/** The link that ends every consent disclosure, as the person reads it. */
export const PRIVACY_LINK = { text: 'Privacy notice', href: '/privacy' } as const;

export interface FormWords {
  form: WebForm;
  entry: CollectionEntry<'quoteForm'> | CollectionEntry<'contactForm'>;
  title: string;
  description: string;
  submit: string;
  /** The page's heading once the request is received. */
  received: string;
  /** Each field's label and hint, by its API name. */
  fields: Record<string, { label: string; hint?: string }>;
  /** The services (quote form) or topics (contact form) offered in the list. */
  choices: string[];
  company: string;
  /** The company's facts: the phone every "call us" names. */
  facts: Company;
  /** The quote form's consent text as the editors wrote it, with the company's name in it and `{ways}` for the ways ticked. */
  consentTemplate?: string;
  /** The consent text beside the checkbox on a page that cannot follow the ticks: "…may contact me in the ways ticked above…". */
  consentText?: string;
  /** The quote form's starting prices, by cleaning and size of home; undefined when the editors give none. */
  prices?: PriceGuide;
  /** What the person sees beside the checkbox (the consent text, then the privacy link), and its version: the page's wording. */
  disclosure?: Disclosure;
  /** The disclosure a lead keeps: the consent with the ways it was sent with (`allowedContact`; all three without), then the privacy link. */
  disclosureFor?: (ways: readonly unknown[] | undefined) => Disclosure;
}

/** What the person reads beside the consent box: the consent, then the privacy link. */
const disclosureText = (consent: string) => disclosureOf(`${consent} ${PRIVACY_LINK.text}: ${PRIVACY_LINK.href}`);

/** The words of one form. */
export async function formWords(form: WebForm): Promise<FormWords> {
  const entry = await getEntry(WEB_FORMS[form].collection, WEB_FORMS[form].entry);
  if (!entry) throw new Error(`content/forms/${WEB_FORMS[form].entry}.mdx is missing`);
  const facts = await companyFacts();
  const company = facts.name;
  const data = entry.data;
  const consent = 'consent' in data ? consentTextOf(data, company) : undefined;
  return {
    form,
    entry,
    title: data.title,
    description: data.description,
    submit: data.submit,
    received: data.received,
    fields: data.fields,
    choices: 'services' in data ? data.services : data.topics,
    prices: 'services' in data ? priceGuide(data.services, data.prices) : undefined,
    company,
    facts,
    ...(consent !== undefined && {
      consentTemplate: consent,
      consentText: consentSentence(consent, 'ticked'),
      disclosure: disclosureText(consentSentence(consent, 'ticked')),
      disclosureFor: (ways: readonly unknown[] | undefined) => disclosureText(consentSentence(consent, ways)),
    }),
  };
}

/** What the forms offer, for the documents agents read (`Offer` in `src/service-facts.ts`). */
export async function publishedOffer(): Promise<Offer> {
  const [quote, contact] = await Promise.all([formWords('quote'), formWords('support')]);
  return offerOf(quote.entry.data as QuoteFormData, contact.entry.data as ContactFormData, quote.company);
}
