/**
 * The rules of the company's facts (`content/company.yaml`) and of what a customer can check
 * before trusting it (`content/trust.yaml`), each with an example, in the editors' words.
 */
import { z } from 'astro/zod';
import { toE164UsPhone } from '../leads/phone.ts';
import { readDays, readHours } from '../site/opening-hours.ts';
import { closedDays } from './closed-days.ts';
import { group, list, must, numberRule, rule, text } from './rules.ts';

/** A 5-digit ZIP code, written as a number (97201) or as text ("02134"). */
const PostalCode = z
  .union([z.string(), z.number().int().min(0)], { error: rule('a 5-digit ZIP code', '97201') })
  .transform((zip) => String(zip).trim().padStart(5, '0'))
  .refine((zip) => /^[0-9]{5}$/.test(zip), must('be 5 digits', '97201'));

const HOURS = '{ days: Monday to Friday, opens: 8 am, closes: 6 pm }';
const TOWN = '{ town: Portland, Oregon, postalCodes: [97201, 97202] }';

export const company = z.strictObject(
  {
    /** The company's name, as forms, disclosures and pages write it. */
    name: text('a name', 2, 80, 'Example Cleaning Co.'),
    /** The office's phone, as customers read it: every page shows it, as a link that calls it. */
    phone: text('a phone number', 10, 20, '(503) 555-0100').refine(
      (s) => toE164UsPhone(s) !== undefined,
      must('be a 10-digit U.S. phone number', '(503) 555-0100'),
    ),
    /** The office's e-mail address, for customers. */
    email: z.email({ error: rule('an e-mail address', 'office@example.com') }),
    /** When the office answers the phone, a line each: the days, and when it opens and closes. */
    hours: list(
      'lines of opening hours',
      z
        .strictObject(
          { days: text('days', 3, 40, 'Monday to Friday'), opens: text('a time', 4, 8, '8 am'), closes: text('a time', 4, 8, '6 pm') },
          { error: group('a line of opening hours', 'days, opens and closes', HOURS) },
        )
        .refine((h) => readDays(h.days) !== undefined, must('have days that are a day or a range, such as Saturday', HOURS))
        .refine(
          (h) => readDays(h.days) === undefined || readHours(h) !== undefined,
          must('open and close at times such as 8 am and 6 pm, the first before the second', HOURS),
        ),
      1,
      7,
      `[${HOURS}]`,
    ),
    /** The office's promise: it answers every request within so many working days. */
    answersWithin: z.strictObject(
      {
        workingDays: z
          .number({ error: numberRule('a whole number of working days from 1 to 10', '1') })
          .int()
          .min(1)
          .max(10),
        on: text('the working days', 3, 40, 'Monday to Friday').refine((s) => readDays(s) !== undefined, must('be days', 'Monday to Friday')),
      },
      { error: group('the promise to answer', 'workingDays and on', '{ workingDays: 1, on: Monday to Friday }') },
    ),
    /** The towns the company cleans in, each with the ZIP codes it serves there: one list for the site, the API and the office. */
    serviceArea: list(
      'towns',
      z.strictObject(
        { town: text('a town', 2, 60, 'Portland, Oregon'), postalCodes: list('ZIP codes', PostalCode, 1, 500, '[97201, 97202]') },
        { error: group('a town with its ZIP codes', 'town and postalCodes', TOWN) },
      ),
      1,
      12,
      `[${TOWN}]`,
    ).refine(
      (towns) => {
        const all = towns.flatMap((t) => t.postalCodes);
        return new Set(all).size === all.length;
      },
      must('list each ZIP code once, under one town', TOWN),
    ),
    /**
     * The days the office is closed (holidays), each a date and optionally its name: no working day,
     * no phone answered. A day gone by is kept as written and ignored, never a mistake.
     */
    closedDays: closedDays.optional(),
    /** The office's time zone (an IANA name): the office's e-mail gives each lead's receipt time in it. */
    timeZone: z
      .string({ error: rule('a time zone', 'America/Los_Angeles') })
      .refine((s) => Intl.supportedValuesOf('timeZone').includes(s) || s === 'UTC', must('be a time zone by its standard name', 'America/Los_Angeles')),
  },
  { error: group("the company's details", 'name, phone, email, hours, answersWithin, serviceArea, closedDays and timeZone', 'phone: (503) 555-0100') },
);

const REVIEW = '{ name: Maria L., date: 2026-10-12, text: The team was on time and careful with our floors. }';
const REVIEWER = "the reviewer's name as they agreed to show it";
/** A customer's review, as they wrote it: shown only with the name they agreed to show and the day. */
const Review = z.strictObject(
  {
    name: z
      .string({ error: rule(REVIEWER, 'Maria L.') })
      .trim()
      .min(2, { error: rule(REVIEWER, 'Maria L.') })
      .max(60, { error: rule(`${REVIEWER}, 2 to 60 characters`, 'Maria L.') }),
    date: z
      .date({ error: rule('the day the review was written, as YYYY-MM-DD', '2026-10-12') })
      .refine((d) => d.getTime() <= Date.now(), must('be the day the review was written, not a day to come', '2026-10-12')),
    /** Where the reviewer lives, if they agreed to show it. */
    town: text('a town', 2, 60, 'Portland').optional(),
    text: text('a review', 10, 600, 'The team was on time and careful with our floors.'),
  },
  { error: group('a review with a name, a date and its text', 'name, date, town and text', REVIEW) },
);

/**
 * One or two whole sentences. One cut short is refused: in YAML a "#" after a space starts a
 * comment, which ends the text there ("CCB #000000" would leave "CCB").
 */
const sentences = (what: string, example: string) =>
  text(what, 20, 300, example).refine(
    (s) => /[.!?)]$/.test(s),
    must('end with a full stop; if it stops short, a "#" in it started a comment: put the whole text in double quotes', example),
  );

/**
 * What a customer can check before trusting the company, each part optional and shown only once
 * filled in: nothing here may be invented. The towns served are `serviceArea` in `company.yaml`.
 */
export const trust = z.preprocess(
  // Every part left out (or commented out) is an empty `trust:`, which YAML reads as nothing.
  (data) => data ?? {},
  z.strictObject(
    {
      /** The street address customers can find the office at. */
      address: text('a street address', 10, 160, '1200 SE Example Street, Suite 4, Portland, OR 97214').optional(),
      /** The company's own sentence on its license and insurance. */
      licenseAndInsurance: sentences('a sentence on the license and insurance', '"Licensed in Oregon (CCB #000000) and insured."').optional(),
      /** The company's own sentence on its guarantee. */
      guarantee: sentences('a sentence on the guarantee', 'Not happy with a room? Tell us within 24 hours and we clean it again, free.').optional(),
      /** Reviews customers wrote, each with their name and the day. */
      reviews: list('reviews', Review, 0, 20, `[${REVIEW}]`).optional(),
    },
    {
      error: group(
        'the parts under "trust:", each on a line of its own indented by two spaces',
        'address, licenseAndInsurance, guarantee and reviews',
        'guarantee: Not happy with a room? Tell us within 24 hours and we clean it again, free.',
      ),
    },
  ),
);
