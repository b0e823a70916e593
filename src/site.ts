/** Site-wide facts for the pages: the public origin and the navigation, read when a page is rendered. */
import { getCollection, getEntry } from 'astro:content';
import { getConfig } from './config.ts';
import { serviceLinks } from './facts.ts';
import { WEB_FORMS } from './web-forms/forms.ts';

/** The public origin (`SITE_URL`) the pages link with: read when asked, not when this module loads. */
export const siteUrl = (): string => getConfig().siteUrl;

/** The service's links from that origin. */
export const links = () => serviceLinks(siteUrl());

/** The company, as `content/company.yaml` describes it. */
export async function company(): Promise<{ name: string; area: string; timeZone: string }> {
  const entry = await getEntry('company', 'company');
  if (!entry) throw new Error('content/company.yaml must have a `company` entry');
  return entry.data;
}

/** The company's name, as `content/company.yaml` says. */
export async function companyName(): Promise<string> {
  return (await company()).name;
}

/** The URL path of a content entry: `index` is `/`, `developers` is `/developers`. */
export function pagePath(id: string): string {
  return id === 'index' ? '/' : `/${id}`;
}

/** Navigation: the content pages and the web forms that ask for a place, in their order, then the generated ones. */
export async function navigation(): Promise<Array<{ href: string; label: string }>> {
  const formPath = (id: string) => Object.values(WEB_FORMS).find((f) => f.entry === id)!.path;
  const entries = [
    ...(await getCollection('pages')).flatMap((p) => (p.data.nav ? [{ href: pagePath(p.id), ...p.data.nav }] : [])),
    ...(await getCollection('forms')).map((f) => ({ href: formPath(f.id), ...f.data.nav })),
  ].sort((a, b) => a.order - b.order);
  return [
    ...entries.map(({ href, label }) => ({ href, label })),
    { href: '/developers/errors', label: 'Errors' },
    { href: '/api-docs', label: 'API reference' },
  ];
}
