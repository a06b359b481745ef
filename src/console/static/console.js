// Behaviour every console page shares. Pages work without it; it adds live updates where a
// page asks for them: an element with data-live="<event source URL>" is refreshed with htmx
// whenever the server sends an event there. data-live-state tells whether the stream is open.
document.addEventListener('DOMContentLoaded', () => {
  for (const el of document.querySelectorAll('[data-live]')) {
    const source = new EventSource(el.getAttribute('data-live'));
    source.onopen = () => el.setAttribute('data-live-state', 'open');
    source.onerror = () => el.setAttribute('data-live-state', 'retrying');
    source.onmessage = () => {
      if (window.htmx) window.htmx.trigger(el, 'live');
    };
  }
});

// htmx leaves 4xx answers out by default; the console answers a refused form with the fragment
// that says why (a card with the home's message, a row with the workflow API's), so swap it in.
document.addEventListener('htmx:beforeSwap', (e) => {
  const status = e.detail.xhr.status;
  if (status >= 400 && status < 500) {
    e.detail.shouldSwap = true;
    e.detail.isError = false;
  }
});
