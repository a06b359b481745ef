// The home pages' live behaviour: one EventSource on /home/events; each `state` event carries
// the entity's card rendered by the server, which replaces the card on this page (keeping the
// keyboard focus where it was). Sliders show their value as they move.
(() => {
  document.documentElement.classList.add('js-enabled');
  const status = () => document.querySelector('[data-live-status]');
  const say = (text) => {
    const el = status();
    if (el) el.textContent = text;
  };

  function replaceCard(entityId, markup) {
    const old = document.getElementById('card-' + entityId);
    if (!old) return;
    if (!markup) {
      old.remove(); // the entity is gone from the home
      return;
    }
    const focused = old.contains(document.activeElement) ? document.activeElement : null;
    const focusKey =
      focused && (focused.id || (focused.closest('form') && focused.closest('form').getAttribute('action')));
    // A slider being dragged is not yanked away under the pointer.
    if (focused && focused.matches('input[type=range]:active')) return;
    const holder = document.createElement('div');
    holder.innerHTML = markup;
    const fresh = holder.firstElementChild;
    if (!fresh) return;
    old.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    if (focusKey) {
      const again =
        document.getElementById(focusKey) ||
        fresh.querySelector(
          `form[action="${window.CSS.escape(focusKey)}"] button, form[action="${window.CSS.escape(focusKey)}"] input:not([type=hidden])`,
        );
      if (again) again.focus();
    }
  }

  function listen(url) {
    const source = new EventSource(url);
    source.onopen = () => say('Live: cards follow the home.');
    source.onerror = () => say('Live updates interrupted; reconnecting…');
    source.addEventListener('state', (e) => {
      const data = JSON.parse(e.data);
      replaceCard(data.entity_id, data.html);
    });
  }

  document.addEventListener('DOMContentLoaded', () => {
    const live = document.querySelector('[data-home-live]');
    if (live) listen(live.getAttribute('data-home-live'));
    else say('');
  });

  document.addEventListener('input', (e) => {
    const input = e.target;
    if (input.tagName !== 'INPUT' || input.type !== 'range') return;
    const out = input.form && input.form.querySelector(`output[for="${window.CSS.escape(input.id)}"]`);
    if (out) out.textContent = input.value;
  });
})();
