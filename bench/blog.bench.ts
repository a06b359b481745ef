// Blog benchmark (issue 2): 10k published posts across 100 blogs, published through the API
// (that is the publishing measurement), then the list endpoints and the pages.
import type autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { startSmtpSink } from '../test/helpers/smtp-sink.js';
import { load, loadWithWrk, startHamletForBench, type BenchContext } from './lib.js';

const BLOGS = 100;
const POSTS = 10_000;

/**
 * CPU time the server process has used (all its threads), in ms, from /proc (Linux): per post,
 * it says what publishing costs whatever else the machine is doing; undefined elsewhere.
 */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in USER_HZ (100 on Linux)
  } catch {
    return undefined;
  }
}

export default async function blogBench(ctx: BenchContext) {
  const sink = await startSmtpSink();
  const proc = await startHamletForBench(['blog'], { HAMLET_SMTP_RELAY: sink.url });
  const api = proc.urls['blog api'];
  const port = new URL(api).port;
  try {
    const json = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const r = await request(api + path, {
        method: method as 'GET',
        headers: { 'content-type': 'application/json', ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
      return (await r.body.json()) as any;
    };

    // 100 agents, registered and verified the way agents do it.
    const keys: string[] = [];
    for (let i = 0; i < BLOGS; i++) {
      const email = `bench${i}@example.org`;
      await json('POST', '/api/register', {
        email,
        name: `Bench Blog ${i}`,
        slug: `bench-${i}`,
        bio: `Benchmark blog number ${i}`,
      });
      const mail = await sink.waitFor(
        (m) => m.envelope.to.includes(email) && m.parsed.subject === 'Verify your AI Agent Blog',
      );
      const token = /token=([0-9a-f-]{36})/.exec(mail.parsed.text ?? '')![1];
      keys.push((await json('GET', `/api/verify?token=${token}`, undefined, { accept: 'application/json' })).apiKey);
    }

    // Publishing: 10k posts, each to one of the 100 blogs, 10 connections.
    let n = 0;
    const content = `# A post\n\nSome **markdown** with a [link](https://example.org) and code:\n\n\`\`\`js\nconst x = 1;\n\`\`\`\n\n${'Lorem ipsum dolor sit amet. '.repeat(40)}`;
    const publish: autocannon.Request = {
      method: 'POST',
      path: '/api/publish',
      setupRequest: (req) => {
        const i = n++;
        return {
          ...req,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${keys[i % BLOGS]}` },
          body: JSON.stringify({ title: `Post number ${i}`, content, slug: `post-${i}`, status: 'published' }),
        };
      },
    };
    const cpuBefore = cpuMs(proc.child.pid);
    const pub = await load({ url: api, connections: 10, amount: POSTS, requests: [publish] });
    const cpuAfter = cpuMs(proc.child.pid);
    const cpu =
      cpuBefore !== undefined && cpuAfter !== undefined
        ? `, server CPU ${((cpuAfter - cpuBefore) / POSTS).toFixed(2)} ms/post`
        : '';
    ctx.row('POST /api/publish (creating 10k posts in 100 blogs)', pub, { rps: 1000 }, `${pub.non2xx} non-2xx${cpu}`);

    const host = (h: string) => ({ host: `${h}.blog.localhost:${port}` });
    ctx.row('GET /api/posts', await load({ url: `${api}/api/posts` }), { ratio: 0.25 });
    ctx.row('GET /api/posts?agent=<slug>', await load({ url: `${api}/api/posts?agent=bench-7` }), { ratio: 0.25 });
    ctx.row('GET /api/posts/featured', await load({ url: `${api}/api/posts/featured` }), { ratio: 0.25 });
    ctx.row('GET /api/blogs', await load({ url: `${api}/api/blogs` }), { ratio: 0.25 });
    ctx.row('blog home page (Host: bench-7.…)', await load({ url: `${api}/`, headers: host('bench-7') }), {
      ratio: 0.15,
    });
    ctx.row('post page (Host: bench-7.…)', await load({ url: `${api}/post-7`, headers: host('bench-7') }), {
      ratio: 0.15,
    });
    const front = { host: `blog.localhost:${port}` };
    ctx.row(
      'front page (Host: blog.…: featured, recent, counts, directory)',
      await load({ url: `${api}/`, headers: front }),
      { ratio: 0.15 },
    );
    // The front page is large and holds non-ASCII text (·, ▲, ▼), on which autocannon's parser is
    // the bottleneck (see loadWithWrk): measure it and the bare handler with wrk too.
    const wrkBase = await loadWithWrk({ url: ctx.baselineUrl });
    const wrkFront = await loadWithWrk({ url: `${api}/`, headers: front });
    if (wrkBase && wrkFront)
      ctx.row(
        'front page, measured with wrk',
        wrkFront,
        { ratio: 0.15 },
        `bare Fastify with wrk in the same run: ${Math.round(wrkBase.rps)} req/s`,
        wrkBase.rps,
      );
    ctx.row('RSS feed', await load({ url: `${api}/rss.xml`, headers: host('bench-7') }));
  } finally {
    await proc.stopAndClean();
    await sink.close();
  }
}
