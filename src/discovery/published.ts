/**
 * The discovery documents as this build publishes them: the deployment's origin, what its forms
 * offer and the company's facts (read from the editors' content, so Astro's modules only).
 */
import { getConfig } from '../config/config.ts';
import { company } from '../site/company.ts';
import { publishedOffer } from '../site/form-words.ts';
import { documentedCompany } from './company-facts.ts';
import { openApiDocument, type CompanyFacts } from './openapi.ts';
import { fillConfigured } from '../site/configured-values.ts';

export async function publishedCompany(): Promise<CompanyFacts> {
  return documentedCompany(await company());
}

/**
 * A document as this build publishes it: under `astro dev`, which serves it on demand, the running
 * configuration's values in place of their markers; in a build, the markers the server fills at start-up.
 */
export function asPublished(text: string): string {
  return import.meta.env.MODE === 'development' ? fillConfigured(text, getConfig()) : text;
}

/** The OpenAPI description `/openapi.json` serves. */
export async function publishedDocument(): Promise<Record<string, any>> {
  return openApiDocument(getConfig().siteUrl, await publishedOffer(), await publishedCompany());
}
