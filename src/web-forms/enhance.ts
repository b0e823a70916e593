/**
 * The web forms, better with JavaScript: the form is sent with its Astro Action and the answer is
 * shown in the page without a reload, in the same elements the server fills when it answers a
 * plain POST: each error beside its field (`aria-invalid`, `aria-describedby`), an error summary
 * that links to each field and takes the focus, or the page of the received request (its heading,
 * title, reference and what was sent), and a counter beside a text nearing its limit.
 * As a ZIP code is typed, it says whether the company cleans there.
 * Runs in the browser: it imports nothing of the server's (the words of a value are the pure `choices.ts`).
 */
import { actions } from 'astro:actions';
import type { FormResult } from './submit.ts';
import { shownValue } from './choices.ts';
import { summaryLine } from './summary.ts';
import { typedValue } from './answers.ts';
import { clearErrorsOnceRight } from './field-errors.ts';
import { consentSentence } from '../leads/contact-ways.ts';
import './price-guide.ts';

type ActionName = 'submitQuote' | 'submitContact';

function clearErrors(form: HTMLFormElement): void {
  for (const message of form.querySelectorAll<HTMLElement>('[data-error-for]')) {
    message.hidden = true;
    message.querySelector('[data-error-text]')!.textContent = '';
    message.closest('.field')?.classList.remove('has-error');
  }
  for (const control of form.querySelectorAll<HTMLElement>('input, select, textarea')) {
    control.removeAttribute('aria-invalid');
    const hint = control.dataset.describedby;
    if (hint) control.setAttribute('aria-describedby', hint);
    else control.removeAttribute('aria-describedby');
  }
}

function showErrors(form: HTMLFormElement, errors: Array<{ field: string; message: string }>): void {
  for (const { field, message } of errors) {
    const element = form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(field)}"]`);
    const control = form.querySelector<HTMLElement>(`#f-${CSS.escape(field)}`);
    if (!element || !control) continue;
    element.querySelector('[data-error-text]')!.textContent = message;
    element.hidden = false;
    element.closest('.field')?.classList.add('has-error');
    // A group of choices is in error as a whole: every one of its buttons says so.
    const group = control instanceof HTMLInputElement && (control.type === 'radio' || control.type === 'checkbox');
    const controls = group ? form.querySelectorAll<HTMLElement>(`[name="${field}"]`) : [control];
    for (const each of controls) {
      each.setAttribute('aria-invalid', 'true');
      each.setAttribute('aria-describedby', [each.dataset.describedby, element.id].filter(Boolean).join(' '));
    }
  }
}

/** What the person sent, in the words the server's page uses for it (a list's chosen words, a count, days in words). */
function fillSentSummary(form: HTMLFormElement, panel: HTMLElement): void {
  const data = new FormData(form);
  for (const entry of panel.querySelectorAll<HTMLElement>('[data-sent-field]')) {
    const field = entry.dataset.sentField!;
    entry.querySelector('[data-sent-value]')!.textContent = shownValue(field, typedValue(field, data).trim()) || '(none)';
  }
}

/** The page as the server draws it for a received request: its own heading and title, the answer in place of the form. */
function showReceived(form: HTMLFormElement, result: FormResult & { kind: 'received' | 'duplicate' }): void {
  const heading = document.querySelector<HTMLElement>('[data-page-heading]')!;
  const panel = document.querySelector<HTMLElement>('[data-result]')!;
  const text = result.kind === 'duplicate' ? 'Already received' : heading.dataset.received!;
  document.title = document.title.replace(heading.textContent!.trim(), text);
  heading.textContent = text;
  document.querySelector<HTMLElement>('[data-summary]')!.hidden = true;
  for (const intro of document.querySelectorAll<HTMLElement>('[data-intro]')) intro.hidden = true;
  form.hidden = true;
  panel.querySelector('[data-result-message]')!.textContent = result.message;
  panel.querySelector('[data-reference]')!.textContent = result.reference;
  // The confirmation's own address: a reload or a bookmark shows it again.
  const address = `${location.pathname}?received=${encodeURIComponent(result.reference)}`;
  panel.querySelector<HTMLAnchorElement>('[data-confirmation-link]')!.href = address;
  history.replaceState(null, '', address);
  fillSentSummary(form, panel);
  panel.hidden = false;
  // The heading first, the reference just below it, both in view.
  heading.focus();
  heading.scrollIntoView({ block: 'start' });
}

/**
 * A field's counter: hidden until the text reaches four fifths of its limit, then how much is
 * left, and past the limit how much is too much (the server refuses it in words; nothing is cut).
 */
function count(control: HTMLInputElement | HTMLTextAreaElement, counter: HTMLElement): void {
  const limit = Number(counter.dataset.limit);
  const length = control.value.length;
  const n = (x: number) => x.toLocaleString('en-US');
  counter.hidden = length < limit * 0.8;
  counter.classList.toggle('over', length > limit);
  counter.textContent =
    length > limit ? `${n(length - limit)} characters too many: the most is ${n(limit)}. Please shorten it.` : `${n(length)} of ${n(limit)} characters.`;
}

/** As the person types a ZIP code: whether the company cleans there (`data-area`: each ZIP code served, and its town). */
function watchArea(input: HTMLInputElement, note: HTMLElement): void {
  const towns = JSON.parse(input.dataset.area ?? '{}') as Record<string, string>;
  const update = () => {
    const zip = /^\s*([0-9]{5})(?:-[0-9]{4})?\s*$/.exec(input.value)?.[1];
    note.hidden = zip === undefined;
    if (zip === undefined) return;
    const town = towns[zip];
    note.textContent = town
      ? `We clean in ${town}, at this ZIP code.`
      : 'This ZIP code is outside the area we usually clean. You can still send your request: the office will tell you whether we can come.';
  };
  input.addEventListener('input', update);
  update();
}

/**
 * The consent beside its box says the ways ticked above it ("…may text me and e-mail me…"), as the
 * lead will keep it; the page without JavaScript says "the ways ticked above".
 */
function followTicks(form: HTMLFormElement): void {
  const label = form.querySelector<HTMLElement>('label[data-consent-template]');
  if (!label) return;
  const ticked = () => [...form.querySelectorAll<HTMLInputElement>('input[name="allowedContact"]:checked')].map((box) => box.value);
  label.textContent = consentSentence(label.dataset.consentTemplate!, ticked());
}

/** Shows a submission's answer, as the server's page would. */
function show(form: HTMLFormElement, result: FormResult): void {
  const summary = document.querySelector<HTMLElement>('[data-summary]')!;
  clearErrors(form);
  if (result.token) form.querySelector<HTMLInputElement>('input[name="formToken"]')!.value = result.token;
  if (result.kind === 'received' || result.kind === 'duplicate') return showReceived(form, result);
  if (result.kind === 'invalid') showErrors(form, result.errors);
  summary.querySelector('[data-summary-message]')!.textContent = result.message;
  const list = summary.querySelector('[data-summary-list]')!;
  list.replaceChildren(
    ...(result.kind === 'invalid' ? result.errors : []).map((error) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `#f-${error.field}`;
      link.textContent = summaryLine(error);
      item.append(link);
      return item;
    }),
  );
  if (result.kind === 'page_changed') {
    // The disclosure changed: show the new wording and untick the box, as the redrawn page does
    // without JavaScript; the next send then records the version the person saw.
    const box = form.querySelector<HTMLInputElement>('input[name="communicationsConsent"]');
    if (box) {
      box.checked = false;
      const label = form.querySelector<HTMLElement>(`label[for="${box.id}"]`)!;
      if (result.consentText !== undefined) label.dataset.consentTemplate = result.consentText;
      followTicks(form);
    }
  }
  summary.hidden = false;
  summary.focus();
}

/** The reference copied with one tap: the button shows only where the browser can copy. */
function offerCopy(): void {
  const button = document.querySelector<HTMLButtonElement>('[data-copy-reference]');
  if (!button || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener('click', async () => {
    const reference = document.querySelector('[data-reference]')!.textContent!.trim();
    try {
      await navigator.clipboard.writeText(reference);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy it by hand';
    }
  });
}

/** Takes over the submission of every web form on the page. */
export function enhanceForms(): void {
  offerCopy();
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-web-form]')) {
    for (const counter of form.querySelectorAll<HTMLElement>('[data-counter-for]')) {
      const control = form.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#f-${CSS.escape(counter.dataset.counterFor!)}`)!;
      control.addEventListener('input', () => count(control, counter));
      count(control, counter);
    }
    clearErrorsOnceRight(form);
    const zip = form.querySelector<HTMLInputElement>('input[data-area]');
    const note = form.querySelector<HTMLElement>('[data-area-note]');
    if (zip && note) watchArea(zip, note);
    form.addEventListener('change', (event) => {
      if (event.target instanceof HTMLInputElement && event.target.name === 'allowedContact') followTicks(form);
    });
    followTicks(form);
    const name = form.dataset.webForm as ActionName;
    const button = form.querySelector<HTMLButtonElement>('[data-submit]')!;
    let sending = false;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      // A double click sends once (and the form's key would make a second send a replay anyway).
      if (sending) return;
      sending = true;
      button.disabled = true;
      form.setAttribute('aria-busy', 'true');
      try {
        const { data, error } = await actions[name](new FormData(form));
        show(
          form,
          data ?? {
            kind: 'failed',
            message: error?.message ? `${error.message}` : 'Something went wrong and nothing was saved. Please try again.',
            values: {},
            consent: false,
          },
        );
      } catch {
        show(form, {
          kind: 'failed',
          message: 'The form could not be sent: check your connection and try again. Nothing was saved.',
          values: {},
          consent: false,
        });
      } finally {
        sending = false;
        button.disabled = false;
        form.removeAttribute('aria-busy');
      }
    });
  }
}
