/**
 * The rules of the pages (`content/*.mdx`) and of the two forms' words (`content/forms/*.mdx`), in
 * their frontmatter: each field's rule, with an example, in the editors' words (`./rules.ts`).
 */
import { z } from 'astro/zod';
import { date, group, list, must, numberRule, text } from './rules.ts';
import { prices, unlistedServices } from './prices.ts';
import { WAYS_PLACEHOLDER } from '../leads/contact-ways.ts';
import { FORM_FIELDS } from '../web-forms/answers.ts';

/** A place in the main navigation; leave it out to keep a page out of it. */
const Nav = z.strictObject(
  {
    label: text('a menu label', 2, 24, 'Questions'),
    order: z
      .number({ error: numberRule('a whole number (the place in the menu)', '3') })
      .int()
      .min(0),
  },
  { error: group('a menu entry with a label and a place', 'label and order', '{ label: "Questions", order: 3 }') },
);

const title = text('a title', 3, 80, 'Questions people ask');
const description = text('a description', 20, 200, 'What to expect from a visit, how to prepare your home, and how to reschedule.');

export const page = z.strictObject(
  {
    /** The page's title, shown as its heading and in the browser tab. */
    title,
    /** One or two sentences for search results and link previews. */
    description,
    /** When the text last changed in substance (YYYY-MM-DD). */
    updated: date,
    nav: Nav.optional(),
  },
  { error: group('the settings of a page', 'title, description, updated and nav', 'title: Questions people ask') },
);

/** A choice offered in a form's list: the words people read and the value sent (the API's fields are free text). */
const Choice = text('a choice', 2, 100, 'Deep clean');

/** A field's label, and the hint under it. */
const Field = z.strictObject(
  { label: text('a label', 2, 60, 'E-mail address'), hint: text('a hint', 5, 200, 'We write to you only about this request.').optional() },
  { error: group('a label, and a hint if you want one', 'label and hint', '{ label: E-mail address, hint: "We write to you only about this request." }') },
);
/** The words of each field of a form, by the field's API name: every one is needed. */
const fields = <K extends string>(names: readonly K[]) =>
  z.strictObject(Object.fromEntries(names.map((n) => [n, Field])) as Record<K, typeof Field>, {
    error: group(`the fields ${names.join(', ')}, each on a line of its own`, names.join(', '), 'email: { label: E-mail address }'),
  });

const formWords = {
  title,
  description,
  nav: Nav,
  /** The submit button's label. */
  submit: text('a button label', 2, 40, 'Send my request'),
  /** The page's heading once the request is received. */
  received: text('a heading', 3, 60, 'Request received'),
};
const formGroup = (known: string) => ({ error: group("the settings of a form's page", known, 'submit: Send my request') });

export const quoteForm = z
  .strictObject(
    {
      ...formWords,
      fields: fields(FORM_FIELDS.quote),
      /** The cleanings offered; the quote form's list, also published to agents. */
      services: list('cleanings', Choice, 1, 30, '[Standard clean, Deep clean]'),
      /**
       * The consent disclosure beside the checkbox. It must name the company (`{company}`) and the
       * ways the customer ticked (`{ways}`); the form adds the link to /privacy after it.
       */
      consent: text('a consent text', 40, 800, 'I agree that {company} may {ways} about this request.')
        .refine((s) => s.includes('{company}'), must('name the company: write {company} where its name goes', 'I agree that {company} may {ways}'))
        .refine(
          (s) => s.includes(WAYS_PLACEHOLDER),
          must('name the ways the customer ticked: write {ways} where they go ("call me, text me and e-mail me")', 'I agree that {company} may {ways}'),
        )
        .refine(
          (s) => /not a condition/i.test(s),
          must('say that it is not a condition of buying anything', 'This consent is not a condition of buying anything.'),
        ),
      /** Starting prices by cleaning (named as in `services`) and size of home: the quote page's guide, also published to agents. */
      prices,
    },
    formGroup('title, description, nav, submit, received, fields, services, consent and prices'),
  )
  .superRefine((form, ctx) => {
    for (const issue of unlistedServices(form.services, form.prices)) ctx.addIssue({ code: 'custom', input: form.prices, ...issue });
  });

export const contactForm = z.strictObject(
  {
    ...formWords,
    fields: fields(FORM_FIELDS.support),
    /** The subjects a message can be about; the contact form's list. */
    topics: list('topics', Choice, 1, 30, '[A question about a visit, Something else]'),
  },
  formGroup('title, description, nav, submit, received, fields and topics'),
);
