/**
 * The web forms, better with JavaScript: the form is sent with its Astro Action and the answer is
 * shown in the page without a reload, in the same elements the server fills when it answers a
 * plain POST: each error beside its field (`aria-invalid`, `aria-describedby`), an error summary
 * that links to each field and takes the focus, or the reference of the received request.
 * Runs in the browser: it imports nothing of the server's.
 */
import { actions } from 'astro:actions';
import type { FormResult } from './submit.ts';

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
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-describedby', [control.dataset.describedby, element.id].filter(Boolean).join(' '));
  }
}

/** Shows a submission's answer, as the server's page would. */
function show(form: HTMLFormElement, result: FormResult): void {
  const summary = document.querySelector<HTMLElement>('[data-summary]')!;
  const panel = document.querySelector<HTMLElement>('[data-result]')!;
  clearErrors(form);
  if (result.token) form.querySelector<HTMLInputElement>('input[name="formToken"]')!.value = result.token;
  if (result.kind === 'received' || result.kind === 'duplicate') {
    summary.hidden = true;
    form.hidden = true;
    panel.querySelector('h2')!.textContent = result.kind === 'duplicate' ? 'Already received' : 'Request received';
    panel.querySelector('[data-result-message]')!.textContent = result.message;
    panel.hidden = false;
    panel.focus();
    return;
  }
  if (result.kind === 'invalid') showErrors(form, result.errors);
  summary.querySelector('[data-summary-message]')!.textContent = result.message;
  const list = summary.querySelector('[data-summary-list]')!;
  list.replaceChildren(
    ...(result.kind === 'invalid' ? result.errors : []).map(({ field, message }) => {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `#f-${field}`;
      link.textContent = message;
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
      if (result.consentText !== undefined) form.querySelector(`label[for="${box.id}"]`)!.textContent = result.consentText;
    }
  }
  summary.hidden = false;
  summary.focus();
}

/** Takes over the submission of every web form on the page. */
export function enhanceForms(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[data-web-form]')) {
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
