// The workflow pages' behaviour: importing an n8n export by dropping the file on the drop zone
// (or choosing it with the file input inside it). The file's text is posted as JSON to the
// console, which creates the workflow through the workflow API; then the browser opens it.
// Without script, the "paste the export" form does the same. And a node clicked on the canvas
// unfolds its parameters.
(() => {
  const csrf = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || '';

  async function importFile(zone, file) {
    const status = zone.querySelector('.import-status');
    const say = (text, isError) => {
      if (!status) return;
      status.textContent = text;
      status.classList.toggle('error', Boolean(isError));
    };
    say(`Importing ${file.name}…`);
    let text;
    try {
      text = await file.text();
      JSON.parse(text);
    } catch {
      say(`${file.name} is not JSON: drop an n8n workflow export.`, true);
      return;
    }
    const res = await fetch(zone.getAttribute('data-import'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': csrf(),
        'x-file-name': encodeURIComponent(file.name),
      },
      body: text,
    });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) {
      say(`Not imported: ${answer.message || res.status}`, true);
      return;
    }
    const made = answer.workflows || [];
    say(`Imported ${made.map((w) => w.name).join(', ')}.`);
    window.location.assign(made.length === 1 ? made[0].url : '/workflows');
  }

  // A node clicked on the canvas opens its folded details below.
  const openTarget = () => {
    const target = window.location.hash && document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
    if (target && target.tagName === 'DETAILS') target.open = true;
  };
  window.addEventListener('hashchange', openTarget);

  document.addEventListener('DOMContentLoaded', () => {
    openTarget();
    for (const zone of document.querySelectorAll('[data-import]')) {
      zone.addEventListener('dragover', (e) => {
        e.preventDefault();
        zone.classList.add('over');
      });
      zone.addEventListener('dragleave', () => zone.classList.remove('over'));
      zone.addEventListener('drop', (e) => {
        e.preventDefault();
        zone.classList.remove('over');
        const file = e.dataTransfer && e.dataTransfer.files[0];
        if (file) importFile(zone, file);
      });
      const input = zone.querySelector('input[type=file]');
      if (input) input.addEventListener('change', () => input.files[0] && importFile(zone, input.files[0]));
    }
  });
})();
