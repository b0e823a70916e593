/**
 * Where `/privacy` names each thing a lead keeps: every member of either form, and every column of
 * the store's lead tables (both stores share their names), mapped to the words of `content/privacy.mdx`
 * that name it, with a short reviewed list of technical columns that hold nothing about a person.
 * `tests/unit/privacy-map.test.ts` fails for a member or a column missing here, and for words
 * missing from the page: a new member or column cannot be kept without the page saying so.
 */

/** The words of `/privacy` that name each member a customer (or an agent for them) sends. */
export const PRIVACY_MEMBERS: Readonly<Record<string, string>> = {
  formType: 'For a quote request',
  name: 'your name',
  phone: 'phone',
  email: 'e-mail',
  bedrooms: 'number of bedrooms and bathrooms',
  bathrooms: 'number of bedrooms and bathrooms',
  service: 'the kind of cleaning',
  notes: 'your notes',
  communicationsConsent: 'Consent value',
  consentTimestamp: 'Consent time',
  pageUrl: 'Page address',
  postalCode: 'the ZIP code of the home',
  preferredDates: 'the days that would suit you',
  preferredWindow: 'a window of days',
  frequency: 'how often you would like the cleaning',
  preferredContact: 'how you would rather be reached first',
  allowedContact: 'the only ways you allow the office to reach you',
  timeOfDay: 'the time of day that suits you',
  helpWith: 'what you need help with',
  message: 'your message',
};

/** The words of `/privacy` that name each column of the store's lead tables. */
export const PRIVACY_COLUMNS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  leads: {
    reference: 'A reference',
    form_type: 'For a quote request',
    received_at: 'When it was received',
    received_via: 'How it came',
    fields: 'What you sent',
    phone_e164: 'in a standard form',
    email_normalised: 'in a standard form',
    fingerprint: 'one-way fingerprint',
    consent: 'Evidence of your consent',
    postal_code: 'the ZIP code of the home',
    in_service_area: 'Whether the home is in the area the company cleans',
    search_text: 'folded copy of your name, e-mail, phone and reference',
    status: 'Where your request stands',
    status_by: 'who set it and when',
    status_at: 'who set it and when',
    owner: 'Who in the office has it',
    answer_by: 'The time you were promised an answer by',
    first_contact_at: 'The first contact',
    first_contact_by: 'The first contact',
    received_day: "The office's figures",
    chart_service: "The office's figures",
    first_contact_minutes: "The office's figures",
    // PostgreSQL's own copy of the service, for the office's figures.
    service: "The office's figures",
  },
  lead_notes: {
    at: "The office's notes",
    author: "The office's notes",
    text: "The office's notes",
  },
  lead_attempts: {
    at: 'The attempts',
    tried_by: 'The attempts',
    way: 'The attempts',
  },
  // A lead given to a colleague, marked for them until they open it: who has it, in the office's own words.
  lead_given_marks: {
    account: 'Who in the office has it',
    given_by: 'Who in the office has it',
    given_at: 'Who in the office has it',
  },
  suspected_spam: {
    reference: 'kept aside, as it was sent',
    form_type: 'kept aside, as it was sent',
    received_at: 'kept aside, as it was sent',
    reason: 'kept aside, as it was sent',
    submission: 'kept aside, as it was sent',
    email_normalised: 'kept aside, as it was sent',
    phone_e164: 'kept aside, as it was sent',
    search_text: 'folded copy of your name, e-mail, phone and reference',
    status: 'kept aside, as it was sent',
    status_by: 'kept aside, as it was sent',
    status_at: 'kept aside, as it was sent',
    // The office's mark "not a customer" (migration 21).
    dismissed_at: 'marks it as not a customer, with who marked it and when',
    dismissed_by: 'marks it as not a customer, with who marked it and when',
  },
};

/** Technical columns that hold nothing about a person: the rows' own ids and the keys that tie them to a lead. Reviewed: keep it short. */
export const PRIVACY_EXEMPT: Readonly<Record<string, readonly string[]>> = {
  leads: ['id'],
  lead_notes: ['id', 'lead_id'],
  lead_attempts: ['id', 'lead_id'],
  lead_given_marks: ['lead_id'],
  suspected_spam: ['id'],
};
