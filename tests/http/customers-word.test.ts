/**
 * The customer's word on the company's own forms and in the API's answers, in process (issue 54):
 * the lead of a quote form keeps the consent with the ways ticked; none ticked sends nothing; the
 * contact form takes the same limits; and the answer (201, 409, the form's confirmation) repeats them
 * as the customer's own. The pages themselves, with and without JavaScript: `tests/e2e/customers-word.browser.test.ts`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormWords } from '../../src/site/form-words.ts';
import type { submitWebForm as SubmitWebForm } from '../../src/web-forms/submit.ts';
import { issueFormToken } from '../../src/web-forms/token.ts';
import { testApp, type TestApp } from '../support/app.ts';
import { contact, quote } from '../support/fixtures.ts';
import { postJson } from '../support/in-process.ts';
import { pagesOf, type Pages } from '../support/pages.ts';

describe("the customer's word, in process", () => {
  let app: TestApp;
  let pages: Pages;
  let words: { quote: FormWords; support: FormWords };
  let submitWebForm: typeof SubmitWebForm;
  beforeAll(async () => {
    app = await testApp();
    pages = await pagesOf(app);
    const forms = await pages.module<{ formWords(form: 'quote' | 'support'): Promise<FormWords> }>('src/site/form-words.ts');
    words = { quote: await forms.formWords('quote'), support: await forms.formWords('support') };
    ({ submitWebForm } = await pages.module<{ submitWebForm: typeof SubmitWebForm }>('src/web-forms/submit.ts'));
  });
  afterAll(async () => {
    await pages?.close();
    await app?.dispose();
  });

  /** A form as a person sends it, filled in at leisure: every answer, the ways ticked, the consent box on a quote request. */
  const filledIn = (form: 'quote' | 'support', answers: Record<string, unknown>, ways: string[]) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(answers)) if (typeof value === 'string') data.set(name, value);
    for (const way of ways) data.append('allowedContact', way);
    data.set('allowedContactShown', 'yes');
    if (form === 'quote') data.set('communicationsConsent', 'on');
    data.set('formToken', issueFormToken(app.services.formTokenKey, form, words[form].disclosure?.version, Date.now() - 30_000));
    return data;
  };
  const send = (form: 'quote' | 'support', data: FormData) =>
    submitWebForm(data, words[form], {
      services: app.services,
      request: { id: randomUUID(), clientAddress: '198.51.100.54', host: 'localhost:4321' },
      userAgent: 'test',
      budget: { allowed: true, limit: 10, remaining: 9, resetSeconds: 60 },
    });
  const stored = async (name: string) => {
    for await (const item of app.composition.office.inbox.exportInbox({})) if (item.lead.fields.name === name) return item.lead;
    return undefined;
  };

  it('keeps with a quote request the consent with the ways sent, and says them in the answer', async () => {
    const result = await send('quote', filledIn('quote', quote({ name: 'Texting Tina' }), ['text', 'email']));
    expect(result.kind).toBe('received');
    expect(result.message).toContain('expect to hear from the office by text or e-mail, as you asked, by ');
    const lead = await stored('Texting Tina');
    expect(lead?.fields.allowedContact).toEqual(['text', 'email']);
    expect(lead?.consent.ways).toEqual(['text', 'email']);
    expect(lead?.disclosure?.text).toMatch(/^I agree that Example Cleaning Co\. may text me and e-mail me about this request, .* Privacy notice: \/privacy$/);
    // All three ticked: the consent names all three, and the answer no way at all.
    const all = await send('quote', filledIn('quote', quote({ name: 'Any Way Andy' }), ['call', 'text', 'email']));
    expect(all.message).not.toContain('as you asked');
    expect((await stored('Any Way Andy'))?.disclosure?.text).toContain('may call me, text me and e-mail me about');
  });

  it('with no way ticked, says to choose one, and sends nothing', async () => {
    const result = await send('quote', filledIn('quote', quote({ name: 'Nobody Ticked' }), []));
    expect(result.kind).toBe('invalid');
    expect(result.kind === 'invalid' && result.errors).toEqual([
      { field: 'allowedContact', label: 'How may we reach you?', message: 'Choose at least one way we may reach you.' },
    ]);
    expect(await stored('Nobody Ticked')).toBeUndefined();
    // A page drawn before the ways were asked (without their boxes) sends no limit: any way, as its consent said.
    const before = filledIn('support', contact({ name: 'Older Page' }), []);
    before.delete('allowedContactShown');
    expect((await send('support', before)).kind).toBe('received');
    expect((await stored('Older Page'))?.fields.allowedContact).toBeUndefined();
  });

  it('refuses on the form a first way outside the ways ticked, in words', async () => {
    const result = await send('quote', filledIn('quote', quote({ name: 'Mixed Mona', preferredContact: 'call' }), ['email']));
    expect(result.kind === 'invalid' && result.errors.map((e) => [e.field, e.message])).toEqual([
      ['preferredContact', 'Choose one of the ways you ticked, or no preference.'],
    ]);
  });

  it('takes the limits on the contact form, and its answer follows them', async () => {
    const result = await send('support', filledIn('support', contact({ name: 'Oven Olga', preferredContact: 'text' }), ['text']));
    expect(result.kind).toBe('received');
    expect(result.message).toContain('by text only, as you asked, by ');
    expect((await stored('Oven Olga'))?.fields).toMatchObject({ allowedContact: ['text'], preferredContact: 'text' });
  });

  it('says the limits in the 201 and repeats the same sentence in the 409, on a contact message and a quote request', async () => {
    for (const body of [contact({ allowedContact: ['text', 'email'] }), quote({ allowedContact: ['call', 'email'], preferredContact: 'email' })]) {
      const first = await postJson(app, '/api/v1/leads', JSON.stringify(body));
      expect(first.status).toBe(201);
      expect(first.json.whatHappensNext).toMatch(/expect to hear from the office by (text or e-mail|phone or e-mail), as you asked, by /);
      const again = await postJson(app, '/api/v1/leads', JSON.stringify(body));
      expect(again.status).toBe(409);
      expect(again.json.whatHappensNext).toBe(first.json.whatHappensNext);
    }
    const refused = await postJson(app, '/api/leads', JSON.stringify(contact({ allowedContact: ['email'], preferredContact: 'call' })));
    expect(refused.status).toBe(422);
    expect(refused.json.errors).toEqual([expect.objectContaining({ pointer: '#/preferredContact', code: 'not_allowed' })]);
  });
});
