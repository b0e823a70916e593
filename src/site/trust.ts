/**
 * What a customer can check before trusting the company, as the editors filled it in
 * (`content/trust.yaml`, checked by `src/content.config.ts`), with the towns it serves
 * (`serviceArea` in `content/company.yaml`). Every part but the towns is optional: what is absent
 * is absent here too, and the pages show nothing in its place.
 */
import { getEntry } from 'astro:content';
import { company } from './company.ts';

/** A customer's review, as they wrote it. */
export interface Review {
  name: string;
  town?: string;
  /** The day it was written: `YYYY-MM-DD` for the machine, "October 12, 2026" for people. */
  date: string;
  day: string;
  text: string;
}

export interface Trust {
  /** The towns served in a sentence: "Portland, Oregon and Vancouver, Washington". */
  area: string;
  address?: string;
  licenseAndInsurance?: string;
  guarantee?: string;
  /** Newest first. */
  reviews: Review[];
}

const dayWords = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });

/** The company's trust facts; an absent `content/trust.yaml` entry is nothing filled in. */
export async function trust(): Promise<Trust> {
  const [{ area }, entry] = await Promise.all([company(), getEntry('trust', 'trust')]);
  const { reviews = [], ...facts } = entry?.data ?? {};
  return {
    area,
    ...facts,
    reviews: reviews.map((r) => ({ ...r, date: r.date.toISOString().slice(0, 10), day: dayWords.format(r.date) })).sort((a, b) => b.date.localeCompare(a.date)),
  };
}
