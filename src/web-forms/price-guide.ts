/**
 * The quote page's price guide, with JavaScript: one sentence for what the customer has chosen so
 * far (the cleaning, the bedrooms, "5+" whatever the count typed), said again at each choice, in
 * place of the table a page without JavaScript shows. Runs in the browser on import; a page
 * without the guide (no prices in the content, or the contact form) is left alone.
 */
import { guideSentence, type PriceGuide } from '../prices.ts';

function watchPrices(guide: HTMLElement): void {
  const form = guide.closest('form');
  const line = guide.querySelector<HTMLElement>('[data-price-line]');
  const table = guide.querySelector<HTMLElement>('[data-price-table]');
  if (!form || !line || !table) return;
  const prices = JSON.parse(guide.dataset.prices ?? '[]') as PriceGuide;
  let said = '';
  const update = () => {
    const data = new FormData(form);
    const sentence = guideSentence(prices, String(data.get('service') ?? ''), String(data.get('bedrooms') ?? ''));
    // Said only when it changes: the line is a live region, read out at each change.
    if (sentence !== said) line.textContent = said = sentence;
  };
  form.addEventListener('change', update);
  update();
  table.hidden = true;
  line.hidden = false;
}

if (typeof document !== 'undefined') for (const guide of document.querySelectorAll<HTMLElement>('[data-price-guide]')) watchPrices(guide);
