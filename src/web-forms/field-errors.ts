/**
 * A field's error goes as soon as the person has put the field right, without waiting for the next
 * Send: when they change it and the page itself sees nothing wrong with it any more (filled in where
 * it is required, an e-mail address shaped as one, a phone number of at least ten digits, within its
 * length). Its line leaves the error summary, whose count follows; the summary goes with the last.
 * What only the server can tell (a number outside the U.S., say) is said again at the next Send.
 * Runs in the browser, on the elements the server draws (`data-error-for`, `data-summary`).
 */

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

/** The summary's first words, as src/web-forms/submit.ts writes them for `count` answers. */
const needAttention = (count: number) => (count === 1 ? 'One answer needs' : `${count} answers need`);

/** Whether the page sees nothing wrong with every control named `field`. */
function looksRight(form: HTMLFormElement, field: string): boolean {
  const controls = [...form.querySelectorAll<Control>(`[name="${CSS.escape(field)}"]`)];
  if (controls.length === 0 || controls.some((control) => !control.checkValidity())) return false;
  const [control] = controls;
  if (control instanceof HTMLInputElement && control.type === 'tel' && control.value.replace(/\D/g, '').length < 10) return false;
  const counter = form.querySelector<HTMLElement>(`[data-counter-for="${CSS.escape(field)}"]`);
  return !counter || control!.value.length <= Number(counter.dataset.limit);
}

/** Takes `field`'s error away: beside the field, on its controls and in the summary. */
function clearField(form: HTMLFormElement, field: string, message: HTMLElement): void {
  message.hidden = true;
  message.querySelector('[data-error-text]')!.textContent = '';
  message.closest('.field')?.classList.remove('has-error');
  for (const control of form.querySelectorAll<HTMLElement>(`[name="${CSS.escape(field)}"]`)) {
    control.removeAttribute('aria-invalid');
    const hint = control.dataset.describedby;
    if (hint) control.setAttribute('aria-describedby', hint);
    else control.removeAttribute('aria-describedby');
  }
  const summary = document.querySelector<HTMLElement>('[data-summary]');
  if (!summary || summary.hidden) return;
  for (const link of summary.querySelectorAll<HTMLAnchorElement>('[data-summary-list] a')) if (link.hash === `#f-${field}`) link.closest('li')!.remove();
  const left = summary.querySelectorAll('[data-summary-list] li').length;
  if (left === 0) summary.hidden = true;
  else {
    const said = summary.querySelector('[data-summary-message]')!;
    said.textContent = said.textContent!.replace(/^(?:One answer needs|\d+ answers need)/, needAttention(left));
  }
}

/** Watches `form`'s fields: an edited field in error that now looks right loses its error. */
export function clearErrorsOnceRight(form: HTMLFormElement): void {
  const edited = (event: Event) => {
    const field = (event.target as Partial<Control>).name;
    if (!field) return;
    const message = form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(field)}"]`);
    if (message && !message.hidden && looksRight(form, field)) clearField(form, field, message);
  };
  form.addEventListener('input', edited);
  form.addEventListener('change', edited);
}
