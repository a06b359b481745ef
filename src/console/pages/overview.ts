// The console's front page: which services run here and where, with links into each view.
import type { ConsoleModule } from '../context.js';
import { html, layout, raw } from '../../platform/console-layout.js';

export const overviewPages: ConsoleModule = (app, ctx) => {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const rows = Object.entries(ctx.running).flatMap(([name, svc]) =>
      Object.entries(svc!.urls).map(
        ([label, url]) => html`<tr><td>${name}</td><td>${label}</td><td><a href="${url}">${url}</a></td></tr>`,
      ),
    );
    const body = html`<h1>Hamlet</h1>
<p class="muted">What runs in this process, and where its APIs listen.</p>
<div class="table-wrap"><table><thead><tr><th scope="col">Service</th><th scope="col">Endpoint</th><th scope="col">URL</th></tr></thead>
<tbody>${raw(rows.join(''))}</tbody></table></div>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(layout({ title: 'Overview', body, csrf: request.consoleCsrf, nav: request.consoleNav, path: '/' }));
  });
};
