/**
 * What editors change: MDX pages under the top-level `content/`, the words of the two web forms
 * (`content/forms/`), the company's facts (`content/company.yaml`) and what a customer can check
 * before trusting it (`content/trust.yaml`). Each is checked here, so a
 * mistake stops the build (and `npm run dev`) with a message naming the file, the field, the rule
 * and what was found, in words (`src/content-rules.ts`).
 */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';
import { toE164UsPhone } from './leads/phone.ts';
import { date, group, list, prices, rule, text, unlistedServices } from './content-rules.ts';
import { readDays, readHours } from './site/opening-hours.ts';

/** A 5-digit ZIP code, written as a number (97201) or as text ("02134"). */
const PostalCode = z
  .union([z.string(), z.number().int().min(0)], { error: rule('a 5-digit ZIP code, such as 97201') })
  .transform((zip) => String(zip).trim().padStart(5, '0'))
  .refine((zip) => /^[0-9]{5}$/.test(zip), 'each ZIP code must be 5 digits, such as 97201');

/** A place in the main navigation; leave it out to keep a page out of it. */
const Nav = z.strictObject({
  label: text('a menu label', 2, 24),
  order: z
    .number({ error: rule('a whole number such as 1 (the place in the menu)') })
    .int()
    .min(0),
});

const pages = defineCollection({
  loader: glob({ base: './content', pattern: ['**/*.mdx', '!forms/**'] }),
  schema: z.strictObject({
    /** The page's title, shown as its heading and in the browser tab. */
    title: text('a title', 3, 80),
    /** One or two sentences for search results and link previews. */
    description: text('a description', 20, 200),
    /** When the text last changed in substance (YYYY-MM-DD). */
    updated: date,
    nav: Nav.optional(),
  }),
});

/** A choice offered in a form's list: the words people read and the value sent (the API's fields are free text). */
const Choice = text('a choice', 2, 100);

/** A field's label, and the hint under it. */
const Field = z.strictObject({ label: text('a label', 2, 60), hint: text('a hint', 5, 200).optional() });
/** The words of each field of a form, by the field's API name: every one is needed. */
const fields = <K extends string>(names: readonly K[]) => z.strictObject(Object.fromEntries(names.map((n) => [n, Field])) as Record<K, typeof Field>);

const formWords = {
  title: text('a title', 3, 80),
  description: text('a description', 20, 200),
  nav: Nav,
  /** The submit button's label. */
  submit: text('a button label', 2, 40),
  /** The page's heading once the request is received. */
  received: text('a heading', 3, 60),
};

/** Each form's words in a collection of its own, so that a mistake is reported against that form's own rules. */
const formCollection = <S extends z.ZodType>(entry: string, schema: S) =>
  defineCollection({ loader: glob({ base: './content/forms', pattern: `${entry}.mdx` }), schema });

const quoteForm = formCollection(
  'quote',
  z
    .strictObject({
      ...formWords,
      fields: fields(['name', 'phone', 'email', 'postalCode', 'bedrooms', 'bathrooms', 'service', 'preferredDates', 'frequency', 'preferredContact', 'notes']),
      /** The cleanings offered; the quote form's list, also published to agents. */
      services: list('cleanings', Choice, 1, 30),
      /**
       * The consent disclosure beside the checkbox. It must name the company (`{company}`) and say
       * that it may call, text and e-mail; the form adds the link to /privacy after it.
       */
      consent: text('a consent text', 40, 800)
        .refine((s) => s.includes('{company}'), 'must name the company: write {company} where its name goes')
        .refine((s) => /\bcall/i.test(s) && /\btext/i.test(s) && /e-?mail/i.test(s), 'must say that the company may call, text and e-mail')
        .refine((s) => /not a condition/i.test(s), 'must say that it is not a condition of buying anything'),
      /** Starting prices by cleaning (named as in `services`) and size of home: the quote page's guide, also published to agents. */
      prices,
    })
    .superRefine((form, ctx) => {
      for (const issue of unlistedServices(form.services, form.prices)) ctx.addIssue({ code: 'custom', input: form.prices, ...issue });
    }),
);

const contactForm = formCollection(
  'contact',
  z.strictObject({
    ...formWords,
    fields: fields(['name', 'phone', 'email', 'helpWith', 'message']),
    /** The subjects a message can be about; the contact form's list. */
    topics: list('topics', Choice, 1, 30),
  }),
);

const company = defineCollection({
  loader: file('content/company.yaml'),
  schema: z.strictObject({
    /** The company's name, as forms, disclosures and pages write it. */
    name: text('a name', 2, 80),
    /** The office's phone, as customers read it: every page shows it, as a link that calls it. */
    phone: text('a phone number', 10, 20).refine((s) => toE164UsPhone(s) !== undefined, 'must be a 10-digit U.S. phone number, such as (503) 555-0100'),
    /** The office's e-mail address, for customers. */
    email: z.email({ error: rule('an e-mail address, such as office@example.com') }),
    /** When the office answers the phone, a line each: the days, and when it opens and closes. */
    hours: list(
      'lines of opening hours, each such as { days: Monday to Friday, opens: 8 am, closes: 6 pm }',
      z
        .strictObject(
          { days: text('days', 3, 40), opens: text('a time', 4, 8), closes: text('a time', 4, 8) },
          { error: rule('{ days: …, opens: …, closes: … }') },
        )
        .refine((h) => readDays(h.days) !== undefined, 'days must be a day or a range, such as "Monday to Friday" or "Saturday"')
        .refine((h) => readHours(h) !== undefined, 'opens and closes must be times such as "8 am" and "6 pm", the first before the second'),
      1,
      7,
    ),
    /** The office's promise: it answers every request within so many working days. */
    answersWithin: z.strictObject(
      {
        workingDays: z
          .number({ error: rule('a whole number of working days, such as 1') })
          .int()
          .min(1)
          .max(10),
        on: text('the working days', 3, 40).refine((s) => readDays(s) !== undefined, 'must be days such as "Monday to Friday"'),
      },
      { error: rule('{ workingDays: 1, on: Monday to Friday }') },
    ),
    /** The towns the company cleans in, each with the ZIP codes it serves there: one list for the site, the API and the office. */
    serviceArea: list(
      'towns, each such as { town: Portland, Oregon, postalCodes: [97201, 97202] }',
      z.strictObject({ town: text('a town', 2, 60), postalCodes: list('ZIP codes', PostalCode, 1, 500) }, { error: rule('{ town: …, postalCodes: [ … ] }') }),
      1,
      12,
    ).refine((towns) => {
      const all = towns.flatMap((t) => t.postalCodes);
      return new Set(all).size === all.length;
    }, 'must list each ZIP code once, under one town'),
    /** The office's time zone (an IANA name): the office's e-mail gives each lead's receipt time in it. */
    timeZone: z
      .string({ error: rule('a time zone, such as America/Los_Angeles') })
      .refine((s) => Intl.supportedValuesOf('timeZone').includes(s) || s === 'UTC', 'must be an IANA time zone, such as America/Los_Angeles'),
  }),
});

/** A customer's review, as they wrote it: shown only with the name they agreed to show and the day. */
const Review = z.strictObject(
  {
    name: z
      .string({ error: rule("the reviewer's name as they agreed to show it, such as Maria L.") })
      .trim()
      .min(2, { error: rule("the reviewer's name as they agreed to show it, such as Maria L.") })
      .max(60, { error: rule("the reviewer's name of 2 to 60 characters") }),
    date: z
      .date({ error: rule('the day the review was written, as YYYY-MM-DD, such as 2026-10-12') })
      .refine((d) => d.getTime() <= Date.now(), 'must be the day the review was written, not a day to come'),
    /** Where the reviewer lives, if they agreed to show it. */
    town: text('a town', 2, 60).optional(),
    text: text('a review', 10, 600),
  },
  { error: group('a review: { name: …, date: …, text: … }', 'name, date, town and text') },
);

/**
 * One or two whole sentences. One cut short is refused: in YAML a "#" after a space starts a
 * comment, which ends the text there ("CCB #000000" would leave "CCB").
 */
const sentences = (what: string) =>
  text(what, 20, 300).refine(
    (s) => /[.!?)]$/.test(s),
    'must end with a full stop; if it stops short, a "#" in it started a comment: put the whole text in double quotes',
  );

/**
 * What a customer can check before trusting the company, each part optional and shown only once
 * filled in: nothing here may be invented. The towns served are `serviceArea` in `company.yaml`.
 */
const trust = defineCollection({
  loader: file('content/trust.yaml'),
  schema: z.preprocess(
    // Every part left out (or commented out) is an empty `trust:`, which YAML reads as nothing.
    (data) => data ?? {},
    z.strictObject(
      {
        /** The street address customers can find the office at. */
        address: text('a street address', 10, 160).optional(),
        /** The company's own sentence on its license and insurance. */
        licenseAndInsurance: sentences('a sentence on the license and insurance').optional(),
        /** The company's own sentence on its guarantee. */
        guarantee: sentences('a sentence on the guarantee').optional(),
        /** Reviews customers wrote, each with their name and the day. */
        reviews: list('reviews', Review, 0, 20).optional(),
      },
      {
        error: group(
          'the parts under "trust:", each on a line of its own indented by two spaces, such as "  guarantee: …"',
          'address, licenseAndInsurance, guarantee and reviews',
        ),
      },
    ),
  ),
});

export const collections = { pages, quoteForm, contactForm, company, trust };
