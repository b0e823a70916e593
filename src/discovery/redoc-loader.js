// /api-docs' one inline script. The plain reference paints first; Redoc's bundle (over 2 MB of
// script, about half a megabyte compressed) is fetched only when it is wanted: on a wide screen
// (where it used to be the whole page), at once, unless the browser asks to save data; on a
// phone, when the reader asks for it; anywhere, when the address is one of Redoc's own links.
/* global document, localStorage, matchMedia, navigator, location -- it runs in the browser */
(() => {
  const offer = document.getElementById('redoc-offer');
  const button = offer.querySelector('button');
  const label = button.textContent;
  let opening = false;
  const open = () => {
    if (opening) return;
    opening = true;
    button.disabled = true;
    button.textContent = 'Loading the interactive reference…';
    // Redoc's own colour mode, as its server-rendered page set it before its first paint.
    let mode = null;
    try {
      mode = localStorage.getItem('redoc.colorMode');
    } catch {
      // Storage refused (a private window, a policy): the system's preference decides.
    }
    if (mode !== 'light' && mode !== 'dark') mode = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    document.documentElement.classList.add(mode);
    import('/api-docs/redoc.js').then(
      () => {
        // Redoc takes the page: the text it replaces leaves the document (and its search and landmarks).
        document.querySelector('main.plain-reference').remove();
        offer.remove();
        document.getElementById('redoc').hidden = false;
      },
      () => {
        opening = false;
        button.disabled = false;
        button.textContent = `${label} (it could not be loaded: try again)`;
      },
    );
  };
  button.addEventListener('click', open);
  offer.hidden = false;
  const wide = matchMedia('(min-width: 64em)').matches && !navigator.connection?.saveData;
  if (wide || /^#(tag|operation|schema|section)\//.test(location.hash)) open();
})();
