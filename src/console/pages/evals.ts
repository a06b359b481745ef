// The evaluation pages (/evals): the runs `hamlet eval run` wrote under HAMLET_EVAL_RUNS, newest
// first; a run per task and per check, with what each check found in each episode; an episode
// with its checks, its changes as people read them, its row diff, its simulated people's rule
// firings, its errors and its files (the trace). Read-only, behind the console's login like
// every page. Names come from the URL and files from disk: evals/files.ts keeps both inside the
// folder and capped, and a file that cannot be read is said on the page (422), never a 500.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleModule } from '../context.js';
import { isEpisodeNumber, isSegment, MAX_RESULT_BYTES, RunsFolder, streamFile, type Read } from '../evals/files.js';
import {
  episodeDir,
  loadDiff,
  loadEpisode,
  loadSummary,
  MAX_LIST_PAGE_BYTES,
  MAX_RUN_PAGE_BYTES,
} from '../evals/load.js';
import type { DiffRowView, EpisodeView, RunView } from '../evals/shapes.js';
import { sendHtml } from '../../platform/console-partial.js';
import { h, layout, markup, when, type Fragment } from '../../platform/console-layout.js';

/** Runs listed on /evals at most (newest first). */
const MAX_RUNS_LISTED = 200;
/** Changes (as people read them) of an episode shown on its page (result.json has them all). */
const MAX_CHANGES_SHOWN = 1000;
/** Rows of an episode's row diff shown on its page (diff.json has them all). */
const MAX_DIFF_ROWS = 300;
/** The files of an episode a page links to, served as text. */
const EPISODE_FILES = ['trace.jsonl', 'diff.json', 'result.json', 'agent.stdout', 'agent.stderr'];

const pct = (x: number) => `${Math.round(x * 100)}%`;
const ms = (x: number | undefined) => (x === undefined ? '' : `${Math.round(x)} ms`);
const passMark = (ok: boolean): Fragment =>
  ok ? h`<span class="ok">passed</span>` : h`<span class="bad">failed</span>`;
const ratio = (passed: number, of: number): Fragment =>
  h`<td class="${passed === of ? 'ok' : 'bad'}">${passed}/${of}</td>`;
const alert = (text: string): Fragment => h`<p class="error" role="alert">${text}</p>`;
const enc = encodeURIComponent;

export const evalPages: ConsoleModule = (app, ctx) => {
  const folder = new RunsFolder(ctx.settings.evals.runsDir);

  const send = (request: FastifyRequest, reply: FastifyReply, title: string, body: Fragment, status = 200) =>
    sendHtml(
      reply,
      layout({ title, body: markup(body), csrf: request.consoleCsrf, nav: request.consoleNav, path: '/evals' }),
      status,
    );
  const notFound = (request: FastifyRequest, reply: FastifyReply, what: string) =>
    send(request, reply, 'Not found', h`<h1>Not found</h1><p>${what}</p><p><a href="/evals">All runs</a></p>`, 404);

  app.get('/evals', { schema: { hide: true } }, async (request, reply) => {
    const all = await folder.runs();
    const runs = all.slice(0, MAX_RUNS_LISTED);
    const rows: Fragment[] = [];
    let budget = MAX_LIST_PAGE_BYTES;
    for (const run of runs) {
      const dir = await folder.resolveDir(run.name);
      if (!dir) continue;
      let summary: Read<RunView> = {
        ok: false,
        missing: false,
        error: 'not read: the page has read its share of summaries',
      };
      if (budget > 0) {
        const read = await loadSummary(dir, Math.min(budget, MAX_RESULT_BYTES));
        budget -= read.bytes;
        summary = read;
      }
      const link = h`<td><a href="/evals/${enc(run.name)}">${run.name}</a></td>`;
      if (!summary.ok) {
        const why = summary.missing ? 'no summary.json yet: still running, or stopped before the end' : summary.error;
        rows.push(h`<tr>${link}<td colspan="6" class="muted">${why}</td></tr>`);
        continue;
      }
      const s = summary.value;
      rows.push(
        h`<tr>${link}<td>${when(s.startedAt)}</td><td><code>${s.agent}</code></td><td>${s.tasks.length}</td><td>${s.totals.episodes}</td>${ratio(s.totals.passed, s.totals.episodes)}<td>${pct(s.totals.meanScore)}</td></tr>`,
      );
    }
    const body = h`<h1>Evaluations</h1>
<p class="muted">The runs in <code>${folder.root}</code> (HAMLET_EVAL_RUNS), newest first: <code>hamlet eval run … --out ${folder.root}/&lt;name&gt;</code> writes one.</p>
${
  rows.length
    ? h`<div class="table-wrap"><table><thead><tr><th scope="col">Run</th><th scope="col">Started</th><th scope="col">Agent</th><th scope="col">Tasks</th><th scope="col">Episodes</th><th scope="col">Passed</th><th scope="col">Mean score</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : h`<p class="muted">No run here yet.</p>`
}
${all.length > runs.length ? h`<p class="muted">The newest ${runs.length} of ${all.length} runs.</p>` : ''}`;
    return send(request, reply, 'Evaluations', body);
  });

  app.get('/evals/:run', { schema: { hide: true } }, async (request, reply) => {
    const { run } = request.params as { run: string };
    const dir = await folder.resolveDir(run);
    if (!dir) return notFound(request, reply, 'There is no such run in the runs folder.');
    const summary = await loadSummary(dir);
    const title = `Run ${run}`;
    if (!summary.ok) {
      const why = summary.missing
        ? 'This run has no summary.json yet: it is still running, or stopped before the end.'
        : summary.error;
      return send(
        request,
        reply,
        title,
        h`<h1>${title}</h1>${alert(why)}<p><a href="/evals">All runs</a></p>`,
        summary.missing ? 200 : 422,
      );
    }
    const s = summary.value;
    const episodes = await readEpisodes(run, s);
    const t = s.timings;
    const body = h`<h1>${title}</h1>
<p><a href="/evals">All runs</a></p>
<p>Agent <code>${s.agent}</code>, started ${when(s.startedAt)}, ${s.parallel} in parallel. <strong>${s.totals.passed}/${s.totals.episodes}</strong> episodes passed, mean score ${pct(s.totals.meanScore)}.
Reset per episode: mean ${ms(t.meanResetMs)}, at most ${ms(t.maxResetMs)}; instances started in ${ms(t.poolStartMs)}, worlds made in ${ms(t.prepareMs)}, episodes ran in ${ms(t.episodesMs)}.</p>
${s.tasks.map((task) => taskSection(run, s, task, episodes))}`;
    return send(request, reply, title, body);
  });

  /** Each episode's result, read within the page's budget: by task, then by episode number. */
  async function readEpisodes(run: string, s: RunView): Promise<Map<string, Read<EpisodeView>>> {
    const out = new Map<string, Read<EpisodeView>>();
    let budget = MAX_RUN_PAGE_BYTES;
    for (const e of s.episodes) {
      const key = `${e.task}/${e.episode}`;
      const dir = isSegment(e.task) ? await episodeDir(folder, run, e.task, e.episode) : undefined;
      if (!dir) {
        out.set(key, { ok: false, missing: true, error: `episode ${key} has no folder in this run` });
        continue;
      }
      if (budget <= 0) {
        out.set(key, { ok: false, missing: false, error: 'not read: the page has read its share of this run' });
        continue;
      }
      const read = await loadEpisode(dir, `${key}/result.json`, Math.min(budget, MAX_RESULT_BYTES));
      budget -= read.bytes;
      out.set(key, read);
    }
    return out;
  }

  function taskSection(
    run: string,
    s: RunView,
    task: RunView['tasks'][number],
    results: Map<string, Read<EpisodeView>>,
  ) {
    const mine = s.episodes.filter((e) => e.task === task.id);
    const found = (i: number) =>
      mine.flatMap((e) => {
        const r = results.get(`${e.task}/${e.episode}`);
        const c = r?.ok ? r.value.checks[i] : undefined;
        return c ? [h`<li class="${c.pass ? 'ok' : 'bad'}">#${e.episode}: ${c.message}</li>`] : [];
      });
    const unreadable = mine.flatMap((e) => {
      const r = results.get(`${e.task}/${e.episode}`);
      return r && !r.ok ? [h`<li>#${e.episode}: ${r.error}</li>`] : [];
    });
    const episodeLink = (n: number) =>
      isSegment(task.id) ? h`<a href="/evals/${enc(run)}/${enc(task.id)}/${n}">#${n}</a>` : h`#${n}`;
    return h`<section aria-labelledby="task-${task.id}"><h2 id="task-${task.id}">${task.id}</h2>
<p><small>${task.file}</small>: ${task.passed}/${task.episodes} episodes passed, mean score ${pct(task.meanScore)}.</p>
<div class="table-wrap"><table><thead><tr><th scope="col">Check</th><th scope="col">Kind</th><th scope="col">Episodes passing</th><th scope="col">What it found</th></tr></thead><tbody>${task.checks.map(
      (c, i) => h`<tr><td>${c.name}</td><td>${c.kind}</td>${ratio(c.passed, c.of)}<td><ul>${found(i)}</ul></td></tr>`,
    )}</tbody></table></div>
${unreadable.length ? h`<div class="error" role="alert"><p>Results this page could not read:</p><ul>${unreadable}</ul></div>` : ''}
<div class="table-wrap"><table><thead><tr><th scope="col">Episode</th><th scope="col">Result</th><th scope="col">Score</th><th scope="col">Failed checks</th><th scope="col">Reset</th><th scope="col">Agent</th><th scope="col">Checks</th><th scope="col">Total</th><th scope="col">Errors</th></tr></thead><tbody>${mine.map(
      (e) =>
        h`<tr><td>${episodeLink(e.episode)}</td><td>${passMark(e.passed)}${e.timedOut ? ' (time limit)' : ''}</td><td>${pct(e.score)}</td><td>${e.failed.join('; ')}</td><td>${ms(e.timings.resetMs)}</td><td>${ms(e.timings.agentMs)}</td><td>${ms(e.timings.checksMs)}</td><td>${ms(e.timings.totalMs)}</td><td>${e.errors.join('; ')}</td></tr>`,
    )}</tbody></table></div></section>`;
  }

  app.get('/evals/:run/:task/:n', { schema: { hide: true } }, async (request, reply) => {
    const { run, task, n } = request.params as { run: string; task: string; n: string };
    const dir = isEpisodeNumber(n) ? await episodeDir(folder, run, task, Number(n)) : undefined;
    if (!dir) return notFound(request, reply, 'There is no such episode in the runs folder.');
    const title = `${task} #${n}`;
    const base = `/evals/${enc(run)}/${enc(task)}/${n}`;
    const back = h`<p><a href="/evals/${enc(run)}#task-${task}">Run ${run}</a> · <a href="/evals">All runs</a></p>`;
    const result = await loadEpisode(dir, 'result.json');
    if (!result.ok)
      return send(request, reply, title, h`<h1>${title}</h1>${back}${alert(result.error)}`, result.missing ? 404 : 422);
    const r = result.value;
    const diff = await loadDiff(dir);
    const agent = r.agent.timedOut
      ? 'was stopped at the time limit'
      : `exited with ${r.agent.exitCode ?? r.agent.signal ?? '?'}`;
    const body = h`<h1>${title}: ${passMark(r.passed)}, score ${pct(r.score)}</h1>
${back}
<p>The agent ${agent} after ${ms(r.agent.durationMs)}; ${r.traceEntries} trace entries.
Files: ${EPISODE_FILES.map((f, i) => h`${i ? ' · ' : ''}<a href="${base}/${f}">${f}</a>`)}</p>
${r.errors.length ? h`<section aria-labelledby="errors"><h2 id="errors">Errors</h2><ul class="error" role="alert">${r.errors.map((e) => h`<li>${e}</li>`)}</ul></section>` : ''}
<section aria-labelledby="checks"><h2 id="checks">Checks</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">Check</th><th scope="col">Kind</th><th scope="col">Result</th><th scope="col">What it found</th></tr></thead><tbody>${r.checks.map(
      (c) => h`<tr><td>${c.name}</td><td>${c.kind}</td><td>${passMark(c.pass)}</td><td>${c.message}</td></tr>`,
    )}</tbody></table></div></section>
<section aria-labelledby="changes"><h2 id="changes">What changed, as people read it</h2>
${
  r.changes.length
    ? h`<div class="table-wrap"><table><thead><tr><th scope="col">Service</th><th scope="col">Kind</th><th scope="col">Change</th></tr></thead><tbody>${r.changes
        .slice(0, MAX_CHANGES_SHOWN)
        .map(
          (c) => h`<tr><td>${c.service}</td><td><code>${c.kind}</code></td><td>${c.text}</td></tr>`,
        )}</tbody></table></div>${r.changes.length > MAX_CHANGES_SHOWN ? h`<p>${r.changes.length - MAX_CHANGES_SHOWN} more in <a href="${base}/result.json">result.json</a>.</p>` : ''}`
    : h`<p class="muted">Nothing changed.</p>`
}</section>
<section aria-labelledby="people"><h2 id="people">Simulated people</h2>
${
  r.people.length
    ? h`<div class="table-wrap"><table><thead><tr><th scope="col">Person</th><th scope="col">Rule</th><th scope="col">Fired</th></tr></thead><tbody>${r.people.flatMap(
        (p) => p.fired.map((times, i) => h`<tr><td>${p.name}</td><td>${i + 1}</td><td>${times}</td></tr>`),
      )}</tbody></table></div>`
    : h`<p class="muted">No simulated people in this task.</p>`
}</section>
<section aria-labelledby="rows"><h2 id="rows">The row diff</h2>
<details${r.passed ? '' : h` open`}><summary>Rows added, changed and removed, by service (diff.json)</summary>
${diffSection(diff, `${base}/diff.json`)}</details></section>
<section aria-labelledby="timings"><h2 id="timings">Timings</h2>
<p>${Object.entries(r.timings).map(([k, v], i) => h`${i ? ', ' : ''}${k.replace(/Ms$/, '')} ${ms(v)}`)}</p></section>`;
    return send(request, reply, title, body);
  });

  function diffSection(diff: Read<DiffRowView[]>, link: string) {
    if (!diff.ok) return alert(diff.error);
    if (!diff.value.length) return h`<p class="muted">No row changed.</p>`;
    const shown = diff.value.slice(0, MAX_DIFF_ROWS);
    return h`<div class="table-wrap"><table><thead><tr><th scope="col">Service</th><th scope="col">Change</th><th scope="col">Table</th><th scope="col">Key</th><th scope="col">Row or columns</th></tr></thead><tbody>${shown.map(
      (d) =>
        h`<tr><td>${d.service}</td><td>${d.change}</td><td>${d.table}</td><td><code>${d.key}</code></td><td><code>${d.detail}</code></td></tr>`,
    )}</tbody></table></div>
${diff.value.length > shown.length ? h`<p>${diff.value.length - shown.length} more rows in <a href="${link}">diff.json</a>.</p>` : ''}`;
  }

  app.get('/evals/:run/:task/:n/:file', { schema: { hide: true } }, async (request, reply) => {
    const { run, task, n, file } = request.params as { run: string; task: string; n: string; file: string };
    const dir =
      isEpisodeNumber(n) && EPISODE_FILES.includes(file) ? await episodeDir(folder, run, task, Number(n)) : undefined;
    const path = dir ? await folder.resolve(run, task, n, file) : undefined;
    if (!path) return notFound(request, reply, 'There is no such file in the runs folder.');
    const stream = await streamFile(path, file);
    if (!stream.ok) return notFound(request, reply, stream.error);
    return reply
      .header('x-content-type-options', 'nosniff')
      .header('content-disposition', `inline; filename="${file}"`)
      .type('text/plain; charset=utf-8')
      .send(stream.value);
  });
};
