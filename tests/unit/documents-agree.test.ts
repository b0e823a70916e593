/**
 * Every published document says each rule as its source says it. The documents are read as they
 * are built, in process (`tests/support/documents.ts`): the OpenAPI description and /api-docs,
 * /llms.txt, `GET /api/v1`, /developers, /developers/errors, /terms and /privacy. For each rule,
 * every occurrence of its source sentence (or of a sentence quoting it, such as a problem's
 * `resolution`) is set aside; what remains must not state the rule again in other words, and every
 * figure a document gives for it must be the source's. A document points to the rule instead.
 */
import { describe, expect, it } from 'vitest';
import { fillConfigured } from '../../src/site/configured-values.ts';
import { FIELDS } from '../../src/leads/fields.ts';
import { PROBLEM_CODES, PROBLEMS } from '../../src/problems/registry.ts';
import { ENVIRONMENT_RULE, FACTS, MAX_BODY_TEXT, RULES } from '../../src/service-facts.ts';
import { RETRY_STEPS, retrySentence } from '../../src/service-rules.ts';
import { LEAD_SCHEMA_PATH } from '../../src/service-facts.ts';
import { loadConfig } from '../../src/config/config.ts';
import { config, documents } from '../support/documents.ts';
import { openapi } from '../support/openapi.ts';
import { plainReference } from '../../src/discovery/plain-reference.ts';

/** A rule: the sentences that state it (set aside where they appear), what states it otherwise, and the figures it gives. */
interface Rule {
  sources: readonly string[];
  /** A sentence stating the rule; once the sources are set aside, none may be left. */
  restated?: RegExp;
  /** A figure of the rule as a document writes it (the first group), and the figure the source gives. */
  figures?: Array<[RegExp, string]>;
}

/** The problems' resolutions: each quotes the retry rule it applies (checked below), so a document may show them as they are. */
const RESOLUTIONS = PROBLEM_CODES.map((code) => PROBLEMS[code].resolution);

const RULE_SET: Record<string, Rule> = {
  'the body limit': {
    sources: [],
    restated: /\b\d+(?:\.\d+)?\s*(?:KB|kB|KiB|kilobytes|MB)\b/,
    figures: [[/\b(\d[\d,]*)\s*bytes\b(?! (?:of|once))/g, MAX_BODY_TEXT]],
  },
  'the consent time': {
    sources: [RULES.consentTimestamp],
    restated: /(?=[^.\n]*\b(?:consentTimestamp|consent (?:was )?given|gave (?:that |their )?consent)\b)[^.\n]*(?:\bUTC\b|\boffset\b|\(`?Z`?\)|\btime zone\b)/i,
    figures: [[/\b(\d+) minutes? (?:in the future|ahead)/g, FACTS.consentClockSkewMinutes]],
  },
  'the date window': {
    sources: [],
    restated: /\bpreferredDates\b[^.\n]*\b(?:weeks?|months?) ahead\b/i,
    figures: [
      [/\b(\d+) days ahead\b/g, FACTS.preferredDatesDaysAhead],
      [/\bup to (\w+) (?:different )?(?:preferred )?dates\b/g, '3'],
    ],
  },
  'the phone plan': {
    sources: [FACTS.phoneRule, FIELDS.phone.expects],
    restated: /\b(?:Canad\w*|Caribbean|Bermud\w*|Bahamas|Puerto Rico|Guam|territor(?:y|ies)|\+1 (?:plan|code))\b/i,
  },
  'the retry rule': {
    sources: [RULES.retry, ...RESOLUTIONS],
    restated:
      /\b(?:send|resend)\b[^.;\n]*\bsame\b[^.;\n]*`?Idempotency-Key`?|\btry again\b|\bagain later\b|\bretry(?!-)\b (?:it |the request |the lead |again )?(?:with|after|once|later)\b|\bcorrected\b[^.;\n]*Idempotency-Key/i,
  },
  'the Idempotency-Key rule': {
    sources: [RULES.idempotencyKey],
    restated: /Idempotency-Key`?[^.\n]*\b(?:optional|recommended)\b|\b(?:optional|recommended)\b[^.\n]*Idempotency-Key|\bleave (?:the|this) header out\b/i,
  },
  'where preferred days go': {
    sources: [RULES.preferredDays],
    restated:
      /\b(?:preferred|which|the) days\b[^.\n]*\b(?:notes|message)\b|\bdays and times\b[^.\n]*\bnotes\b|\bnotes\b[^.\n]*\b(?:preferred )?days\b(?! ahead)/i,
  },
  'the value types': {
    sources: [RULES.valueTypes],
    restated: /\ball values\b|\bevery value is\b|\bvalues are (?:JSON )?strings\b|\bas a string\b[^.\n]*\bexcept\b|\(a JSON number\)/i,
  },
  'what a test deployment is for': {
    sources: [ENVIRONMENT_RULE.test, ENVIRONMENT_RULE.production, RULES.testDeployment],
    restated: /\btakes no leads\b|\btest deployment\b|\bplain HTTP\b|\bdoes not begin with https\b/i,
  },
  'what to quote to the office': {
    sources: [RULES.whatToQuote],
    restated: /\b(?:give|quote)\b[^.\n]*\b(?:X-Request-Id|lead id|lead `id`)/i,
  },
};

/** Where each document states a rule otherwise than its source: one line per finding. */
function disagreements(docs: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [path, text] of Object.entries(docs)) {
    // Line breaks inside a paragraph are not sentence ends.
    const flat = text.replace(/[ \t]*\n(?=[a-z(`"])/g, ' ');
    for (const [rule, { sources, restated, figures }] of Object.entries(RULE_SET)) {
      let rest = flat;
      for (const source of [...sources].sort((a, b) => b.length - a.length)) rest = rest.split(source).join(' \u2063 ');
      if (restated) {
        const sentences = rest.split(/(?<=[.!?])\s+|\n+/);
        for (const sentence of sentences)
          if (restated.test(sentence)) found.push(`${path}: ${rule}, stated otherwise than its source: "${sentence.trim().slice(0, 200)}"`);
      }
      for (const [pattern, expected] of figures ?? []) {
        for (const match of flat.matchAll(pattern)) {
          const figure = match[1]!.toLowerCase() === 'three' ? '3' : match[1]!;
          if (figure !== expected) found.push(`${path}: ${rule} is ${expected}, and it says ${JSON.stringify(match[0])}`);
        }
      }
    }
  }
  return found;
}

describe('every published document states each rule as its source does', () => {
  const docs = documents();

  it('reads every document, and each is complete', () => {
    expect(Object.keys(docs)).toEqual(['/openapi.json', '/api-docs', '/llms.txt', '/api/v1', '/developers', '/developers/errors', '/terms', '/privacy']);
    for (const [path, text] of Object.entries(docs)) {
      expect(text.length, path).toBeGreaterThan(1000);
      expect(text, path).not.toMatch(/@@configured|\{\{\w+\}\}/);
    }
  });

  it('no document states a rule otherwise than its source: the body limit, the consent time, the date window, the phone plan, the retry rule, where preferred days go, the value types', () => {
    expect(disagreements(docs)).toEqual([]);
  });

  it('each rule an agent needs is in every document an agent reads, word for word', () => {
    for (const path of ['/openapi.json', '/llms.txt', '/developers', '/api-docs'])
      for (const rule of [
        RULES.retry,
        RULES.idempotencyKey,
        RULES.consentTimestamp,
        RULES.preferredDays,
        RULES.valueTypes,
        RULES.whatToQuote,
        FACTS.phoneRule,
        // The consent with the customer's limits, and the limits themselves (issue 54).
        RULES.consent,
        RULES.contactLimits,
        RULES.preferredContact,
      ])
        expect(docs[path]!.replace(/[ \t]*\n(?=[a-z(`"])/g, ' '), `${path}: ${rule.slice(0, 40)}`).toContain(rule);
  });

  it('a contradiction planted in a document is found: the old "in UTC (`Z`)" beside "with its offset"', () => {
    const planted = { ...docs, '/developers': `${docs['/developers']}\n\nSend consentTimestamp in UTC (\`Z\`); a time with its offset is refused.\n` };
    expect(disagreements(planted)).toEqual([
      '/developers: the consent time, stated otherwise than its source: "Send consentTimestamp in UTC (`Z`); a time with its offset is refused."',
    ]);
    const offset = { ...docs, '/llms.txt': `${docs['/llms.txt']}\n- consentTimestamp: send the time with its offset, not in UTC.\n` };
    expect(disagreements(offset)).toHaveLength(1);
  });

  it('a paraphrase of each other rule is found too', () => {
    for (const [plant, rule] of [
      ['The body may be at most 20 KB.', 'the body limit'],
      ['The body may be at most 32,000 bytes.', 'the body limit'],
      ['Dates may be up to 90 days ahead.', 'the date window'],
      ['A Canadian number is accepted.', 'the phone plan'],
      ['After a 500, try again later.', 'the retry rule'],
      ['The Idempotency-Key header is optional, and recommended.', 'the Idempotency-Key rule'],
      ['Preferred days and times go in notes.', 'where preferred days go'],
      ['All values are strings, except communicationsConsent.', 'the value types'],
      ['This deployment takes no leads.', 'what a test deployment is for'],
      ['Give the X-Request-Id or the lead id from the answer.', 'what to quote to the office'],
    ] as const) {
      const found = disagreements({ ...docs, '/terms': `${docs['/terms']}\n\n${plant}\n` });
      expect(found.length, plant).toBeGreaterThan(0);
      expect(
        found.every((f) => f.startsWith(`/terms: ${rule}`)),
        `${plant}: ${found.join('; ')}`,
      ).toBe(true);
    }
  });

  it("each problem's resolution that says how to retry quotes the retry rule", () => {
    expect(PROBLEMS.rate_limited.resolution).toBe(retrySentence('afterRetryAfter'));
    expect(PROBLEMS.service_unavailable.resolution.startsWith(retrySentence('afterRetryAfter').slice(0, -1))).toBe(true);
    expect(PROBLEMS.internal_error.resolution).toBe(retrySentence('afterInternalError'));
    for (const step of Object.values(RETRY_STEPS)) expect(RULES.retry).toContain(step);
    for (const code of ['consent_required', 'validation_failed'] as const) expect(PROBLEMS[code].resolution).toMatch(/a new Idempotency-Key\.$/);
  });
});

describe('each answer of /api-docs lists its own problem codes (issue 54)', () => {
  it("under each status of POST /api/v1/leads, the codes of that status, and no other's", () => {
    const html = plainReference(openapi);
    const responses = html.slice(html.indexOf('id="submitLead"')).split('<h3>Responses</h3>')[1]!.split('</dl>')[0]!;
    const listed = Object.fromEntries(
      [...responses.matchAll(/<dt>(\d+)<\/dt><dd>.*?(?:<p>Problem codes: (.*?)<\/p>)?<\/dd>/g)].map((m) => [
        m[1],
        [...(m[2] ?? '').matchAll(/<code>(\w+)<\/code>/g)].map((c) => c[1]),
      ]),
    );
    for (const [status, codes] of Object.entries(listed))
      expect(codes, status).toEqual(PROBLEM_CODES.filter((code) => String(PROBLEMS[code].status) === status).sort());
    expect(listed['400']).toEqual(['authorization_not_accepted', 'bad_request', 'invalid_idempotency_key', 'malformed_json']);
    expect(listed['422']).toEqual(['consent_required', 'idempotency_key_reused', 'validation_failed']);
    expect(listed['500']).toEqual(['internal_error']);
  });
});

describe('the OpenAPI description, shorter', () => {
  it('is at most 50,000 bytes as compact JSON, as a production deployment serves it', () => {
    const production = loadConfig({ SITE_URL: 'https://www.example-cleaning.com' });
    const served = fillConfigured(JSON.stringify(openapi).replaceAll('http://localhost:4321', production.siteUrl), production);
    expect(Buffer.byteLength(served)).toBeLessThanOrEqual(50_000);
    expect(Buffer.byteLength(fillConfigured(JSON.stringify(openapi), config))).toBeLessThanOrEqual(50_000);
  });

  it("shows every example on the deployment's own origin, and links the request body's own schema", () => {
    const docs = documents();
    for (const [path, text] of Object.entries(docs)) expect(text, path).not.toContain('example-cleaning.com');
    expect(openapi.components.examples.QuoteRequest.value.pageUrl).toBe('http://localhost:4321/quote');
    expect(openapi.info.description).toContain(`http://localhost:4321${LEAD_SCHEMA_PATH}`);
    expect(docs['/llms.txt']).toContain(`http://localhost:4321${LEAD_SCHEMA_PATH}`);
  });
});
