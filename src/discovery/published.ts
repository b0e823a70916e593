/**
 * The discovery documents as this build publishes them: the deployment's origin, what its forms
 * offer and the company's facts (read from the editors' content, so Astro's modules only).
 */
import { getConfig } from '../config.ts';
import { formatUsPhone } from '../leads/phone.ts';
import { company } from '../site.ts';
import { publishedOffer } from '../web-forms/words.ts';
import { openApiDocument, type CompanyFacts } from './openapi.ts';

/** The company as the documents state it: its phone written plainly (a page's no-break spaces are for browsers). */
export async function publishedCompany(): Promise<CompanyFacts> {
  const facts = await company();
  return { name: facts.name, phone: formatUsPhone(facts.tel.replace(/^tel:/, '')), serviceArea: facts.area };
}

/** The OpenAPI description `/openapi.json` serves. */
export async function publishedDocument(): Promise<Record<string, any>> {
  return openApiDocument(getConfig().siteUrl, await publishedOffer(), await publishedCompany());
}
