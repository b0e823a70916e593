/** Site-wide facts for the pages: the public origin and the navigation, read when a page is rendered. */
import { getCollection, getEntry } from 'astro:content';
import { getConfig } from '../config/config.ts';
import { serviceLinks } from '../service-facts.ts';
import { toE164UsPhone } from '../leads/phone.ts';
import type { CallBackPromise } from '../leads/next-step.ts';
import type { ServiceArea } from '../leads/service-area.ts';
import { hoursLine, readDays, readHours } from './opening-hours.ts';
import { WEB_FORMS } from './forms.ts';

/** The public origin (`SITE_URL`) the pages link with: read when asked, not when this module loads. */
export const siteUrl = (): string => getConfig().siteUrl;

/** The service's links from that origin. */
export const links = () => serviceLinks(siteUrl());

/** The company, as `content/company.yaml` describes it. */
export interface Company {
  name: string;
  /** The office's phone as people read it (never broken over two lines), and as a `tel:` link dials it (E.164). */
  phone: string;
  tel: string;
  email: string;
  /** When the office answers the phone, a line each: "Monday to Friday, 8 am to 6 pm". */
  hours: string[];
  /** What it promises about answering a request, for the sentence that names the day. */
  promise: CallBackPromise;
  /** The ZIP codes served, by town. */
  serviceArea: ServiceArea;
  /** The towns in a sentence: "Portland, Oregon and Vancouver, Washington". */
  area: string;
  timeZone: string;
}

/** The company, as `content/company.yaml` describes it (checked by `src/content.config.ts`). */
export async function company(): Promise<Company> {
  const entry = await getEntry('company', 'company');
  if (!entry) throw new Error('content/company.yaml must have a `company` entry');
  const { answersWithin, hours, serviceArea, ...data } = entry.data;
  const phone = data.phone.replaceAll(' ', '\u00a0').replaceAll('-', '\u2011');
  const promise: CallBackPromise = {
    companyName: data.name,
    timeZone: data.timeZone,
    workingDays: answersWithin.workingDays,
    on: readDays(answersWithin.on)!,
    hours: hours.map((h) => readHours(h)!),
  };
  return {
    ...data,
    phone,
    tel: `tel:${toE164UsPhone(data.phone)}`,
    hours: hours.map(hoursLine),
    promise,
    serviceArea: { towns: serviceArea },
    area: new Intl.ListFormat('en-US', { type: 'conjunction' }).format(serviceArea.map((t) => t.town)),
  };
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
