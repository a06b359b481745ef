// The mail views (/mail…): every organization's inboxes, the outbox of mail held for other
// domains, message and thread lists per inbox (search, label filter, one API page at a time),
// a message with its HTML in a sandboxed iframe, its raw source, its attachments, and live
// refreshes as mail arrives. Read-only: everything comes from the mail service's public API.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServicePages } from '../../../platform/console-pages.js';
import { layout, raw } from '../../../platform/console-layout.js';
import { registerMailEvents } from './mail-events.js';
import { MailApiError, MailSource, type Organization } from './mail-source.js';
import { MAIL_RECEIVED } from '../../../platform/topics.js';
import {
  addressLine,
  h,
  markup,
  type Fragment,
  attachmentList,
  enc,
  FILTER_LABELS,
  HIDING_LABELS,
  inboxPath,
  labelChips,
  MESSAGE_PAGE_CSP,
  messageBody,
  messagePath,
  messageRows,
  pager,
  threadPath,
  threadRows,
  when,
  type MessageJson,
  type OutboxJson,
  type ThreadJson,
} from './mail-views.js';

const PAGE_SIZE = 50;
/** How long /mail reuses the recent threads when no mail arrives (sent mail and label changes show after this). */
const RECENT_TTL_MS = 2000;

interface Page {
  title: string;
  body: Fragment;
  /** Extra response headers (the message page's CSP). */
  headers?: Record<string, string>;
}

type Query = Record<string, string | undefined>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

export const mailPages: ServicePages['register'] = (app, ctx) => {
  const mail = new MailSource(ctx);
  registerMailEvents(app, ctx);

  /** Registers a page: its errors from the mail API become a page with the same status. */
  function page(
    url: string,
    render: (params: Record<string, string>, query: Query, request: FastifyRequest) => Promise<Page>,
  ) {
    app.get(url, { schema: { hide: true } }, async (request, reply) => {
      const query = Object.fromEntries(
        Object.entries(request.query as Record<string, unknown>).map(([k, v]) => [k, str(v)]),
      );
      try {
        const p = await render(request.params as Record<string, string>, query, request);
        for (const [k, v] of Object.entries(p.headers ?? {})) reply.header(k, v);
        return send(request, reply, 200, p.title, p.body);
      } catch (err) {
        if (!(err instanceof MailApiError)) throw err;
        const status = err.status === 404 || err.status === 400 ? err.status : 502;
        return send(
          request,
          reply,
          err.status === 503 ? 503 : status,
          'Mail',
          h`<h1>Mail</h1><p class="error" role="alert">${err.message}</p><p><a href="/mail">All inboxes</a></p>`,
        );
      }
    });
  }
  const send = (request: FastifyRequest, reply: FastifyReply, status: number, title: string, body: Fragment) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(layout({ title, body: markup(body), csrf: request.consoleCsrf, nav: request.consoleNav, path: '/mail' }));

  async function orgOf(inbox: string): Promise<string> {
    const org = await mail.orgOf(inbox);
    if (!org) throw new MailApiError(404, `No inbox ${inbox}`);
    return org;
  }

  // The organization-wide thread list is the costliest call of /mail (it sorts across inboxes),
  // and the page is what people keep open: its answer is kept briefly, and dropped at once when
  // mail arrives (the same event that refreshes the page), so a live refresh never shows it stale.
  let recentThreads: { until: number; threads: Promise<ThreadJson[]> } | undefined;
  const forget = ctx.platform.events.subscribe(MAIL_RECEIVED, () => (recentThreads = undefined));
  app.addHook('onClose', async () => forget());
  const recentOf = (orgs: Organization[]): Promise<ThreadJson[]> => {
    const now = Date.now();
    if (!recentThreads || recentThreads.until < now) {
      const threads = Promise.all(
        orgs.map(async (org) => (await mail.get<{ threads: ThreadJson[] }>(org.id, '/v0/threads?limit=15')).threads),
      ).then((lists) =>
        lists
          .flat()
          .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
          .slice(0, 15),
      );
      threads.catch(() => (recentThreads = undefined));
      recentThreads = { until: now + RECENT_TTL_MS, threads };
    }
    return recentThreads.threads;
  };

  page('/mail', async () => {
    const groups = await mail.inboxes();
    const recent = await recentOf(groups.map((g) => g.org));
    const inboxes = groups.filter((g) => g.inboxes.length);
    const body = h`<h1>Mail</h1>
<p><a class="button" href="/mail/outbox">Outbox: mail held for other domains</a></p>
<h2>Inboxes</h2>
${inboxes.length ? '' : h`<p class="muted">No inboxes yet. Agents make them with <code>POST /v0/inboxes</code> on the mail API.</p>`}
${inboxes.map(
  ({ org, inboxes: list, more }) =>
    h`<section aria-label="Organization ${org.label}"><h3 class="muted">${org.label}</h3><ul class="inboxes">${list.map(
      (
        i,
      ) => h`<li><a href="${inboxPath(i.inbox_id)}">${i.inbox_id}</a> ${i.display_name ? h`<span class="muted">${i.display_name}</span>` : ''}
<a class="muted" href="${inboxPath(i.inbox_id)}/threads">threads</a></li>`,
    )}</ul>${more ? h`<p class="muted">The first 100 inboxes of this organization are shown.</p>` : ''}</section>`,
)}
<h2>Recent threads</h2>
${live('/mail/events', '/mail', 'recent', threadRows(recent, 'No mail yet.'))}`;
    return { title: 'Mail', body };
  });

  page('/mail/inboxes/:inbox', async ({ inbox }, q) => {
    const org = await orgOf(inbox);
    const label = q.label && FILTER_LABELS.includes(q.label) ? q.label : undefined;
    const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (q.page) params.set('page_token', q.page);
    let listPath: string;
    if (q.q) {
      params.set('q', q.q);
      listPath = `/v0/inboxes/${enc(inbox)}/messages/search?${params}`;
    } else {
      if (label) params.set('labels', JSON.stringify([label]));
      if (label && HIDING_LABELS.includes(label)) params.set(`include_${label}`, 'true');
      listPath = `/v0/inboxes/${enc(inbox)}/messages?${params}`;
    }
    const list = await mail.get<{ messages: MessageJson[]; next_page_token?: string }>(org, listPath);
    // Search has no label parameter: a label narrows the page of matches here.
    const messages = q.q && label ? list.messages.filter((m) => m.labels.includes(label)) : list.messages;
    const here = inboxPath(inbox);
    const current = `${here}?${new URLSearchParams(Object.entries({ q: q.q, label, page: q.page }).filter((e): e is [string, string] => !!e[1]))}`;
    const body = h`${inboxHeader(inbox, 'messages')}
<form class="filters" method="get" action="${here}" role="search">
<div><label for="q">Search</label><input id="q" name="q" type="search" value="${q.q ?? ''}" placeholder="sender, recipient, subject or text"></div>
<div><label for="label">Label</label><select id="label" name="label"><option value="">any</option>${FILTER_LABELS.map(
      (l) => h`<option${l === label ? raw(' selected') : ''}>${l}</option>`,
    )}</select></div>
<div><button type="submit">Filter</button> ${q.q || label ? h`<a href="${here}">Clear</a>` : ''}</div>
</form>
${live(`/mail/events?inbox=${enc(inbox)}`, current, 'messages', messageRows(messages, q.q || label ? 'No message matches.' : 'No mail in this inbox yet.'))}
${pager(here, { q: q.q, label }, list.next_page_token, !q.page)}`;
    return { title: inbox, body };
  });

  page('/mail/inboxes/:inbox/threads', async ({ inbox }, q) => {
    const org = await orgOf(inbox);
    const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (q.page) params.set('page_token', q.page);
    const list = await mail.get<{ threads: ThreadJson[]; next_page_token?: string }>(
      org,
      `/v0/inboxes/${enc(inbox)}/threads?${params}`,
    );
    const here = `${inboxPath(inbox)}/threads`;
    const body = h`${inboxHeader(inbox, 'threads')}
${live(`/mail/events?inbox=${enc(inbox)}`, q.page ? `${here}?page=${enc(q.page)}` : here, 'threads', threadRows(list.threads, 'No threads in this inbox yet.'))}
${pager(here, {}, list.next_page_token, !q.page)}`;
    return { title: `Threads · ${inbox}`, body };
  });

  page('/mail/inboxes/:inbox/threads/:thread', async ({ inbox, thread }, q) => {
    const org = await orgOf(inbox);
    const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
    if (q.page) params.set('page_token', q.page);
    const t = await mail.get<ThreadJson & { messages: MessageJson[]; next_page_token?: string }>(
      org,
      `/v0/inboxes/${enc(inbox)}/threads/${enc(thread)}?${params}`,
    );
    const body = h`<p><a href="${inboxPath(inbox)}/threads">← Threads of ${inbox}</a></p>
<h1>${t.subject || '(no subject)'}</h1>
<p class="muted">${t.message_count} message${t.message_count === 1 ? '' : 's'} · ${t.senders.join(', ')} ${labelChips(t.labels)}</p>
<ol class="thread">${t.messages.map(
      (
        m,
      ) => h`<li class="card"><p><a href="${messagePath(inbox, m.message_id)}"><strong>${m.from}</strong></a> ${when(m.timestamp)} ${labelChips(m.labels)}</p>
<div class="preview">${m.text ?? m.preview ?? ''}</div>
${m.attachments?.length ? h`<p class="muted">Attachments: ${m.attachments.map((a) => a.filename ?? a.attachment_id).join(', ')}</p>` : ''}</li>`,
    )}</ol>
${t.next_page_token ? h`<p><a class="button" href="${threadPath(inbox, thread)}?page=${enc(t.next_page_token)}">Earlier messages →</a></p>` : ''}`;
    return { title: t.subject || 'Thread', body };
  });

  page('/mail/inboxes/:inbox/messages/:message', async ({ inbox, message }) => {
    const org = await orgOf(inbox);
    const m = await mail.get<MessageJson>(org, `/v0/inboxes/${enc(inbox)}/messages/${enc(message)}`);
    const here = messagePath(inbox, message);
    const body = h`<p><a href="${inboxPath(inbox)}">← ${inbox}</a> · <a href="${threadPath(inbox, m.thread_id)}">Thread</a></p>
<h1>${m.subject || '(no subject)'}</h1>
<dl class="mail-head"><dt>From</dt><dd>${m.from}</dd>${addressLine('To', m.to)}${addressLine('Cc', m.cc)}${addressLine('Bcc', m.bcc)}
<dt>Date</dt><dd>${when(m.timestamp)}</dd><dt>Labels</dt><dd>${labelChips(m.labels)}</dd></dl>
<p><a href="${here}/raw">Raw source</a> · <a href="${here}/raw.eml" download>Download .eml</a></p>
${messageBody(m)}
${attachmentList(inbox, message, m.attachments)}
${m.headers ? h`<details><summary>Headers</summary><div class="table-wrap"><table><tbody>${Object.entries(m.headers).map(([k, v]) => h`<tr><th scope="row">${k}</th><td>${v}</td></tr>`)}</tbody></table></div></details>` : ''}`;
    return { title: m.subject || 'Message', body, headers: { 'content-security-policy': MESSAGE_PAGE_CSP } };
  });

  /** The raw message as the mail API's signed download link serves it. */
  async function rawOf(inbox: string, message: string): Promise<Response> {
    const org = await orgOf(inbox);
    const link = await mail.get<{ download_url: string }>(
      org,
      `/v0/inboxes/${enc(inbox)}/messages/${enc(message)}/raw`,
    );
    return download(org, link.download_url);
  }
  /** Fetches a download link's path on the mail service (its public URL may name a proxy the console cannot reach). */
  async function download(org: string, url: string): Promise<Response> {
    const u = new URL(url);
    const res = await mail.fetch(org, u.pathname + u.search);
    if (!res.ok) throw new MailApiError(res.status, `The mail API answered ${res.status} for the download`);
    return res;
  }

  page('/mail/inboxes/:inbox/messages/:message/raw', async ({ inbox, message }) => {
    const source = await (await rawOf(inbox, message)).text();
    const body = h`<p><a href="${messagePath(inbox, message)}">← The message</a> · <a href="${messagePath(inbox, message)}/raw.eml" download>Download .eml</a></p>
<h1>Raw source</h1><pre class="mail-raw">${source}</pre>`;
    return { title: 'Raw source', body };
  });

  // Downloads: the bytes come from the mail API and are always handed over as a file, never
  // shown inline, since an HTML attachment on the console's origin could act with its cookie.
  async function sendFile(reply: FastifyReply, res: Response, fallbackName: string) {
    const type = res.headers.get('content-type') ?? 'application/octet-stream';
    const disposition = (res.headers.get('content-disposition') ?? `attachment; filename="${fallbackName}"`).replace(
      /^\s*inline\b/i,
      'attachment',
    );
    return reply
      .type(type)
      .header('content-disposition', /^\s*attachment\b/i.test(disposition) ? disposition : `attachment; ${disposition}`)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "sandbox; default-src 'none'")
      .send(Buffer.from(await res.arrayBuffer()));
  }
  const downloadRoute = (url: string, fetchFile: (p: Record<string, string>) => Promise<Response>, name: string) =>
    app.get(url, { schema: { hide: true } }, async (request, reply) => {
      try {
        return await sendFile(reply, await fetchFile(request.params as Record<string, string>), name);
      } catch (err) {
        if (!(err instanceof MailApiError)) throw err;
        return reply
          .code(err.status === 404 ? 404 : 502)
          .send({ message: err.message, code: err.status === 404 ? 'not_found' : 'mail_api' });
      }
    });
  downloadRoute('/mail/inboxes/:inbox/messages/:message/raw.eml', (p) => rawOf(p.inbox, p.message), 'message.eml');
  downloadRoute(
    '/mail/inboxes/:inbox/messages/:message/attachments/:attachment',
    async (p) => {
      const org = await orgOf(p.inbox);
      const link = await mail.get<{ download_url: string }>(
        org,
        `/v0/inboxes/${enc(p.inbox)}/messages/${enc(p.message)}/attachments/${enc(p.attachment)}`,
      );
      return download(org, link.download_url);
    },
    'attachment',
  );

  page('/mail/outbox', async (_params, q) => {
    const orgs = await mail.outboxReaders();
    const chosen = q.org ? orgs.filter((o) => o.id === q.org) : orgs;
    if (q.org && !chosen.length) throw new MailApiError(404, 'No such organization');
    const pages = await Promise.all(
      chosen.map(async (org) => {
        const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
        if (q.org && q.page) params.set('page_token', q.page);
        return {
          org,
          ...(await mail.get<{ messages: OutboxJson[]; next_page_token?: string }>(org.id, `/v0/outbox?${params}`)),
        };
      }),
    );
    // Each reader sees its own held mail (Hamlet's own, source "platform", through the
    // console's key alone), so no message comes twice.
    const rows = pages
      .flatMap((p) => p.messages.map((m) => ({ org: p.org, m })))
      .sort((a, b) => b.m.created_at.localeCompare(a.m.created_at))
      .slice(0, PAGE_SIZE);
    const older = pages.filter((p) => p.next_page_token);
    const body = h`<p><a href="/mail">← Mail</a></p><h1>Outbox</h1>
<p class="muted">Mail to other domains, held because no relay (<code>HAMLET_SMTP_RELAY</code>) is set; it is sent when Hamlet starts with one.</p>
${rows.length ? '' : h`<p class="muted">Nothing held.</p>`}
<ul class="mail-list">${rows.map(
      ({
        org,
        m,
      }) => h`<li><a href="/mail/outbox/${enc(org.id)}/${enc(m.outbox_id)}"><span class="subject">${m.subject || '(no subject)'}</span></a>
<span class="from">${m.from} → ${m.to.join(', ')}</span> ${when(m.created_at)}
<div class="preview muted">${m.source === 'platform' ? "Hamlet's own mail" : org.label} · ${(m.text ?? '').slice(0, 160)}</div></li>`,
    )}</ul>
${older.map((p) => h`<p><a class="button" href="/mail/outbox?org=${enc(p.org.id)}&page=${enc(p.next_page_token!)}">Older held mail of ${p.org.label} →</a></p>`)}`;
    return { title: 'Outbox', body };
  });

  page('/mail/outbox/:org/:id', async ({ org, id }) => {
    // Only a known organization: a made-up one in the URL must not get a key minted for it.
    if (!(await mail.outboxReaders()).some((o) => o.id === org)) throw new MailApiError(404, 'No such organization');
    const m = await mail.get<OutboxJson>(org, `/v0/outbox/${enc(id)}`);
    const body = h`<p><a href="/mail/outbox">← Outbox</a></p>
<h1>${m.subject || '(no subject)'}</h1>
<dl class="mail-head"><dt>From</dt><dd>${m.from}</dd>${addressLine('To', m.to)}<dt>Held since</dt><dd>${when(m.created_at)}</dd>
<dt>Source</dt><dd>${m.source === 'platform' ? "Hamlet's own mail" : m.inbox_id}</dd></dl>
${messageBody(m)}`;
    return { title: m.subject || 'Held message', body, headers: { 'content-security-policy': MESSAGE_PAGE_CSP } };
  });
};

function inboxHeader(inbox: string, current: 'messages' | 'threads') {
  const tab = (name: 'messages' | 'threads', href: string, label: string) =>
    h`<li><a href="${href}"${name === current ? raw(' aria-current="page"') : ''}>${label}</a></li>`;
  return h`<p><a href="/mail">← All inboxes</a></p><h1>${inbox}</h1>
<nav aria-label="Inbox views"><ul class="tabs">${tab('messages', inboxPath(inbox), 'Messages')}${tab('threads', `${inboxPath(inbox)}/threads`, 'Threads')}</ul></nav>`;
}

/**
 * A list that refreshes itself when mail arrives: console.js opens the event stream named by
 * data-live and fires "live" here; htmx then fetches this page again and swaps in the list.
 */
function live(events: string, page: string, id: string, content: Fragment) {
  return h`<section class="live" data-live="${events}" hx-get="${page}" hx-trigger="live" hx-select="#${id}" hx-target="#${id}" hx-swap="outerHTML">
<p class="live-state muted" aria-hidden="true">● live</p>
<div id="${id}" aria-live="polite">${content}</div></section>`;
}
