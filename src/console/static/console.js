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
