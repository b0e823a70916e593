/** Site-wide facts for the pages: the public origin and the navigation, read once at build time. */
import { getCollection } from 'astro:content';
import { getConfig } from './config.ts';
import { serviceLinks } from './service-info.ts';

/** The public origin (`SITE_URL`) the pages link with. */
export const siteUrl = getConfig().siteUrl;
export const links = serviceLinks(siteUrl);

/** The URL path of a content entry: `index` is `/`, `developers` is `/developers`. */
export function pagePath(id: string): string {
  return id === 'index' ? '/' : `/${id}`;
}

/** Navigation: the content pages that ask for a place, then the generated ones. */
export async function navigation(): Promise<Array<{ href: string; label: string }>> {
  const pages = (await getCollection('pages')).filter((p) => p.data.nav).sort((a, b) => a.data.nav!.order - b.data.nav!.order);
  return [
    ...pages.map((p) => ({ href: pagePath(p.id), label: p.data.nav!.label })),
    { href: '/developers/errors', label: 'Errors' },
    { href: '/api-docs', label: 'API reference' },
  ];
}
