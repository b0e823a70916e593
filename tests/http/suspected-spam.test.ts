/**
 * Suspected spam, in process: a web form's hidden field, filled in as only a program fills it, keeps
 * the submission aside (answered like a success, never a lead); and a submission released from
 * suspected spam records the consent wording only for a sender who had the form's page.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newReference } from '../../src/leads/reference.ts';
import { releaseSpam } from '../../src/office/spam.ts';
import type { FormWords } from '../../src/site/form-words.ts';
import type { submitWebForm as SubmitWebForm } from '../../src/web-forms/submit.ts';
import { issueFormToken } from '../../src/web-forms/token.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { quote, serviceArea } from '../support/fixtures.ts';
import { pagesOf, type Pages } from '../support/pages.ts';

describe('suspected spam, in process', () => {
  let app: TestApp;
  let pages: Pages;
  let words: FormWords;
  let submitWebForm: typeof SubmitWebForm;
  beforeAll(async () => {
    app = await testApp();
    pages = await pagesOf(app);
    words = await (await pages.module<{ formWords(form: 'quote'): Promise<FormWords> }>('src/site/form-words.ts')).formWords('quote');
    ({ submitWebForm } = await pages.module<{ submitWebForm: typeof SubmitWebForm }>('src/web-forms/submit.ts'));
  });
  afterAll(async () => {
    await pages?.close();
    await app?.dispose();
  });

  /** The quote form as a person sends it: every answer, the consent box, and the token of a page drawn `filledMs` ago. */
  const filledIn = (answers: Record<string, unknown>, extra: Record<string, string> = {}, filledMs = 30_000) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(answers)) if (typeof value === 'string') data.set(name, value);
    // The ways we may reach them, as the page ticks them all at first.
    for (const way of ['call', 'text', 'email']) data.append('allowedContact', way);
    data.set('allowedContactShown', 'yes');
    data.set('communicationsConsent', 'on');
    data.set('formToken', issueFormToken(app.services.formTokenKey, 'quote', words.disclosure?.version, Date.now() - filledMs));
    for (const [name, value] of Object.entries(extra)) data.set(name, value);
    return data;
  };
  const send = (data: FormData) =>
    submitWebForm(data, words, {
      services: app.services,
      request: { id: randomUUID(), clientAddress: '198.51.100.20', host: 'localhost:4321' },
      userAgent: 'test',
      budget: { allowed: true, limit: 10, remaining: 9, resetSeconds: 60 },
    });
  const inInbox = async (name: string) => {
    for await (const item of app.composition.office.inbox.exportInbox({})) if (item.lead.fields.name === name) return true;
    return false;
  };
  const caught = async (name: string) =>
    (await app.composition.office.spam.listSpam({ search: name, limit: 10, offset: 0 })).filter((s) => s.body.name === name);

  it('takes in a person who fills the form in (the check of the test itself)', async () => {
    const result = await send(filledIn(quote({ name: 'Patient Person' })));
    expect(result.kind).toBe('received');
    expect(await inInbox('Patient Person')).toBe(true);
  });

  it('keeps a submission whose hidden field is filled in aside as suspected spam, answered like a success', async () => {
    const result = await send(filledIn(quote({ name: 'Hidden Fieldfiller' }), { website: 'https://spam.example.com' }));
    expect(result.kind).toBe('received');
    expect(await inInbox('Hidden Fieldfiller')).toBe(false);
    expect((await caught('Hidden Fieldfiller')).map((s) => s.reason)).toEqual(['hidden field filled in']);
  });

  it("releases a submission sent without the form's page with no consent wording, even one kept with it", async () => {
    const office = app.composition.office;
    const id = randomUUID();
    // As a submission without a valid form token was kept before the traps left the wording out.
    await office.spam.keepSpam(
      {
        id,
        reference: newReference('quote'),
        formType: 'quote',
        receivedAt: new Date(),
        reason: 'no valid form token',
        body: { ...quote({ name: 'Tokenless Tess' }), consentTimestamp: new Date().toISOString() },
        meta: { receivedVia: '/quote', channel: 'web-form', disclosure: words.disclosure!, clientAddress: '198.51.100.8', userAgent: 'bot' },
      },
      { emailNormalised: 'tess@example.com', phoneE164: '+15035550142' },
    );
    const released = await releaseSpam(office.spam, id, 'office@example.com', serviceArea());
    expect(released).toMatchObject({ kind: 'released', wordingShown: false });
    const leads = [];
    for await (const lead of office.records.exportLeads({})) if (lead.fields.name === 'Tokenless Tess') leads.push(lead);
    expect(leads).toHaveLength(1);
    expect(leads[0]!.consent).toMatchObject({ channel: 'web-form', disclosureVersion: null });
    expect(leads[0]!.disclosure).toBeUndefined();
  });
});
