/**
 * The company's time zone for the office's commands, read where the site reads it
 * (`content/company.yaml`, checked at build by `src/content.config.ts`): the commands run outside
 * Astro, so they read the file themselves.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

const COMPANY_FILE = new URL('../../content/company.yaml', import.meta.url);

export function companyTimeZone(): string {
  const zone: unknown = (parse(readFileSync(COMPANY_FILE, 'utf8')) as { company?: { timeZone?: unknown } } | null)?.company?.timeZone;
  if (typeof zone !== 'string' || !(zone === 'UTC' || Intl.supportedValuesOf('timeZone').includes(zone)))
    throw new Error(`content/company.yaml must name the office's time zone (company.timeZone), such as America/Los_Angeles`);
  return zone;
}
