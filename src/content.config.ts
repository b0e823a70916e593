/**
 * What editors change: MDX pages under the top-level `content/`, the words of the two web forms
 * (`content/forms/`) and the company's name (`content/company.yaml`). Each is checked here, so a
 * typo fails the build with a message naming the file and the field.
 */
import { defineCollection } from 'astro:content';
import { file, glob } from 'astro/loaders';
import { z } from 'astro/zod';

/** A place in the main navigation; leave it out to keep a page out of it. */
const Nav = z.strictObject({ label: z.string().min(2).max(24), order: z.number().int().min(0) });

const pages = defineCollection({
  loader: glob({ base: './content', pattern: ['**/*.mdx', '!forms/**'] }),
  schema: z.strictObject({
    /** The page's title, shown as its heading and in the browser tab. */
    title: z.string().min(3).max(80),
    /** One or two sentences for search results and link previews. */
    description: z.string().min(20).max(200),
    /** When the text last changed in substance (YYYY-MM-DD). */
    updated: z.coerce.date(),
    nav: Nav.optional(),
  }),
});

/** A choice offered in a form's list: the words people read and the value sent (the API's fields are free text). */
const Choice = z.string().trim().min(2).max(100);

const formWords = {
  title: z.string().min(3).max(80),
  description: z.string().min(20).max(200),
  nav: Nav,
  /** The submit button's label. */
  submit: z.string().min(2).max(40),
  /** What happens next: shown with the reference once the request is received. */
  next: z.string().min(20).max(600),
};

const forms = defineCollection({
  loader: glob({ base: './content/forms', pattern: '*.mdx' }),
  schema: z.union([
    z.strictObject({
      ...formWords,
      /** The cleanings offered; the quote form's list, also published to agents. */
      services: z.array(Choice.max(100)).min(1).max(30),
      /**
       * The consent disclosure beside the checkbox. It must name the company (`{company}`) and say
       * that it may call, text and e-mail; the form adds the link to /privacy after it.
       */
      consent: z
        .string()
        .min(40)
        .max(800)
        .refine((s) => s.includes('{company}'), 'consent must name the company: write {company} where its name goes')
        .refine((s) => /\bcall/i.test(s) && /\btext/i.test(s) && /e-?mail/i.test(s), 'consent must say that the company may call, text and e-mail')
        .refine((s) => /not a condition/i.test(s), 'consent must say that it is not a condition of buying anything'),
    }),
    z.strictObject({
      ...formWords,
      /** The subjects a message can be about; the contact form's list. */
      topics: z.array(Choice.max(200)).min(1).max(30),
    }),
  ]),
});

const company = defineCollection({
  loader: file('content/company.yaml'),
  schema: z.strictObject({
    /** The company's name, as forms, disclosures and pages write it. */
    name: z.string().min(2).max(80),
    /** Where it works, in words. */
    area: z.string().min(5).max(120),
    /** The office's time zone (an IANA name): the office's e-mail gives each lead's receipt time in it. */
    timeZone: z
      .string()
      .refine((s) => Intl.supportedValuesOf('timeZone').includes(s) || s === 'UTC', 'timeZone must be an IANA time zone, such as America/Los_Angeles'),
  }),
});

export const collections = { pages, forms, company };
