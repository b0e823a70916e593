/**
 * The inbox's one script: a lead's row comes light (its line, and a link to the lead shown alone);
 * opened, its whole part (how to reach them, what they wrote, the form) is read from `/office/lead`
 * and put in place of the link. Without JavaScript, or when the read fails, the link stays and
 * opens the lead on a page of its own: every lead works either way. A row opened before the script
 * ran (a quick tap on a slow phone) is filled as the script starts.
 */
function fill(doc: Document, details: HTMLDetailsElement): void {
  const link = details.querySelector<HTMLAnchorElement>('.lead-later a:not([aria-busy]):not([data-part-failed])');
  const reference = details.closest('li.lead')?.id.replace(/^lead-/, '');
  if (!link || !reference) return;
  link.setAttribute('aria-busy', 'true');
  // The row's form comes back to this view of the inbox, as a row drawn whole would.
  const from = `/office/lead?${new URLSearchParams({ lead: reference, back: location.pathname + location.search })}`;
  void fetch(from, { credentials: 'same-origin', headers: { accept: 'text/html' } })
    .then(async (reply) => {
      if (!reply.ok) throw new Error(String(reply.status));
      const part = new DOMParser().parseFromString(await reply.text(), 'text/html').querySelector('.lead-open');
      if (!part) throw new Error('no part');
      details.querySelector('.lead-later')?.replaceWith(doc.importNode(part, true));
    })
    .catch(() => {
      // The link stays, and opens the lead alone (after a sign-in, when the session had ended).
      link.removeAttribute('aria-busy');
      link.dataset.partFailed = '';
    });
}

export function openInPlace(doc: Document): void {
  doc.addEventListener(
    'toggle',
    (event) => {
      if (event.target instanceof HTMLDetailsElement && event.target.open) fill(doc, event.target);
    },
    true,
  );
  for (const details of doc.querySelectorAll<HTMLDetailsElement>('li.lead > details[open]')) fill(doc, details);
  doc.documentElement.dataset.leadParts = 'on';
}
