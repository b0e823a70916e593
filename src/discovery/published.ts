/**
 * The discovery documents as this build publishes them: the deployment's origin and what its forms
 * offer (read from the editors' content, so Astro's modules only).
 */
import { getConfig } from '../config.ts';
import { publishedOffer } from '../web-forms/words.ts';
import { openApiDocument } from './openapi.ts';

/** The OpenAPI description `/openapi.json` serves. */
export async function publishedDocument(): Promise<Record<string, any>> {
  return openApiDocument(getConfig().siteUrl, await publishedOffer());
}
