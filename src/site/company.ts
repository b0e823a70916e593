/** Site-wide facts for the pages: the public origin and the navigation, read when a page is rendered. */
import { getCollection, getEntry } from 'astro:content';
import { getConfig } from '../config/config.ts';
import { serviceLinks } from '../service-facts.ts';
import { companyOf, type Company } from './from-content.ts';
import { WEB_FORMS } from './forms.ts';

/** The public origin (`SITE_URL`) the pages link with: read when asked, not when this module loads. */
export const siteUrl = (): string => getConfig().siteUrl;

/** The service's links from that origin. */
export const links = () => serviceLinks(siteUrl());

export type { Company } from './from-content.ts';

/** The company, as `content/company.yaml` describes it (checked by `src/content.config.ts`). */
export async function company(): Promise<Company> {
  const entry = await getEntry('company', 'company');
  if (!entry) throw new Error('content/company.yaml must have a `company` entry');
  return companyOf(entry.data);
}

/** The company's name, as `content/company.yaml` says. */
export async function companyName(): Promise<string> {
  return (await company()).name;
}

/** The URL path of a content entry: `index` is `/`, `developers` is `/developers`. */
export function pagePath(id: string): string {
  return id === 'index' ? '/' : `/${id}`;
}

/**
 * The main navigation, for customers: the content pages and the web forms that ask for a place, in
 * their order. The developers' pages are one link away, "For developers" in the footer.
 */
export async function navigation(): Promise<Array<{ href: string; label: string }>> {
  const forms = await Promise.all(Object.values(WEB_FORMS).map(async (f) => ({ href: f.path, ...(await getEntry(f.collection, f.entry))!.data.nav })));
  const entries = [...(await getCollection('pages')).flatMap((p) => (p.data.nav ? [{ href: pagePath(p.id), ...p.data.nav }] : [])), ...forms].sort(
    (a, b) => a.order - b.order,
  );
  return entries.map(({ href, label }) => ({ href, label }));
}
