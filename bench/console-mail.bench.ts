// Console mail and social pages with 10k mails stored (issue 18: console pages load in < 300 ms).
// 10k messages are sent through the mail API (so every copy, thread and label is real), then
// each page is loaded by an admin holding a bearer key, a few at a time. The p99 column is the
// page load time the target is about; req/s shows how much room is left.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { load, ROOT, startHamletForBench, type BenchContext } from './lib.js';

const MAILS = Number(process.env.BENCH_CONSOLE_MAILS ?? 10_000);
const TARGET_MS = 300;

export default async function consoleMailBench(ctx: BenchContext) {
  const hamlet = await startHamletForBench(['mail', 'blog', 'community'], {
    HAMLET_CONSOLE: 'on',
    HAMLET_CONSOLE_PORT: '0',
  });
  try {
    const key = async (service: string) =>
      (
        await promisify(execFile)(
          process.execPath,
          ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), 'keys', 'create', service, '--name', `bench-${service}`],
          { cwd: ROOT, env: { ...process.env, HAMLET_DATA_DIR: hamlet.dataDir } },
        )
      ).stdout.trim();
    const mailKey = await key('mail');
    const adminKey = await key('admin');
    const api = hamlet.urls['mail api'];
    const consoleUrl = hamlet.urls['console web'];
    const headers = { authorization: `Bearer ${mailKey}`, 'content-type': 'application/json' };
    const post = async (p: string, body: unknown) =>
      (await fetch(api + p, { method: 'POST', headers, body: JSON.stringify(body) })).json() as Promise<
        Record<string, string>
      >;
    const from = (await post('/v0/inboxes', { username: 'sender' })).inbox_id;
    const to = (await post('/v0/inboxes', { username: 'reader' })).inbox_id;
    const sent = await load({
      url: `${api}/v0/inboxes/${encodeURIComponent(from)}/messages`,
      method: 'POST',
      headers,
      body: JSON.stringify({
        to,
        subject: 'Bench mail',
        text: 'A message of the console benchmark. '.repeat(10),
        html: '<p>A message of the <b>console</b> benchmark.</p>',
      }),
      connections: 8,
      amount: MAILS,
    });
    if (sent.non2xx) throw new Error(`${sent.non2xx} of ${MAILS} sends failed`);
    const one = (await (
      await fetch(`${api}/v0/inboxes/${encodeURIComponent(to)}/messages?limit=1`, { headers })
    ).json()) as { messages: Array<{ message_id: string; thread_id: string }> };
    const message = one.messages[0];
    const inbox = `/mail/inboxes/${encodeURIComponent(to)}`;

    const pages: Array<[string, string]> = [
      ['/mail (inboxes, recent threads)', '/mail'],
      [`inbox message list, 50 of ${MAILS / 1000}k`, inbox],
      ['inbox filtered by label unread', `${inbox}?label=unread`],
      [`inbox search (substring over ${MAILS / 1000}k)`, `${inbox}?q=console`],
      ['inbox threads', `${inbox}/threads`],
      ['message (HTML in the sandboxed iframe)', `${inbox}/messages/${encodeURIComponent(message.message_id)}`],
      ['thread', `${inbox}/threads/${encodeURIComponent(message.thread_id)}`],
      ['/mail/outbox', '/mail/outbox'],
      ['/social (blog and community APIs)', '/social'],
    ];
    for (const [name, page] of pages) {
      const r = await load({
        url: consoleUrl + page,
        headers: { authorization: `Bearer ${adminKey}` },
        connections: 4,
      });
      const met = r.p99 < TARGET_MS ? 'met' : 'NOT met';
      ctx.row(
        `console ${name}`,
        r,
        undefined,
        `p99 < ${TARGET_MS} ms ${met}${r.non2xx ? `; ${r.non2xx} non-2xx` : ''}`,
      );
    }
  } finally {
    await hamlet.stopAndClean();
  }
}
