// The run as one HTML page for people: per task its pass rate and each check's, then every
// episode that failed with the checks it failed, what they found, and the changes it made
// (the semantic diff), linked to its folder (result, diff, trace, the agent's output).
// Self-contained (no script, inline style), every value escaped.
import { escapeHtml as e } from '../platform/html.js';
import type { EpisodeResult } from './episode.js';
import type { RunSummary } from './run.js';

const pct = (x: number) => `${Math.round(x * 100)}%`;
const ms = (x: number) => `${Math.round(x)} ms`;

function taskSection(summary: RunSummary): string {
  const rows = summary.tasks
    .map((t) => {
      const checks = t.checks
        .map(
          (c) =>
            `<li class="${c.passed === c.of ? 'ok' : 'bad'}">${e(c.name)} <small>(${e(c.kind)})</small>: ${c.passed}/${c.of}</li>`,
        )
        .join('');
      return `<tr><td><b>${e(t.id)}</b><br><small>${e(t.file)}</small></td><td class="${t.passed === t.episodes ? 'ok' : 'bad'}">${t.passed}/${t.episodes}</td><td>${pct(t.meanScore)}</td><td><ul>${checks}</ul></td></tr>`;
    })
    .join('\n');
  return `<table><tr><th>task</th><th>passed</th><th>mean score</th><th>checks (episodes passing)</th></tr>\n${rows}</table>`;
}

function episodeSection(r: EpisodeResult, dir: string): string {
  const failed = r.checks
    .filter((c) => !c.pass)
    .map((c) => `<li class="bad"><b>${e(c.name)}</b>: ${e(c.message)}</li>`)
    .join('');
  const changes = r.changes.length
    ? r.changes.map((c) => `<li><code>${e(c.service)}</code> <code>${e(c.kind)}</code> ${e(c.text)}</li>`).join('')
    : '<li><i>nothing changed</i></li>';
  const agent = r.agent.timedOut ? 'stopped at the time limit' : `exited with ${r.agent.exitCode ?? r.agent.signal}`;
  const errors = r.errors.length ? `<p class="bad">${r.errors.map(e).join('<br>')}</p>` : '';
  return `<section><h3>${e(r.task)} #${r.episode} <small>score ${pct(r.score)}, instance ${r.instance}, epoch ${r.epoch}</small></h3>
<p>The agent ${e(agent)} after ${ms(r.agent.durationMs)}; ${r.traceEntries} trace entries. <a href="${e(dir)}/result.json">result</a> · <a href="${e(dir)}/diff.json">diff</a> · <a href="${e(dir)}/trace.jsonl">trace</a> · <a href="${e(dir)}/agent.stderr">agent's stderr</a></p>${errors}
<h4>Failed checks</h4><ul>${failed}</ul><h4>What changed</h4><ul>${changes}</ul></section>`;
}

export function renderReport(summary: RunSummary, results: EpisodeResult[]): string {
  const failing = results.filter((r) => !r.passed);
  const episodes = failing
    .map((r) =>
      episodeSection(r, summary.episodes.find((x) => x.task === r.task && x.episode === r.episode)?.dir ?? ''),
    )
    .join('\n');
  const t = summary.timings;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hamlet evaluation: ${summary.totals.passed}/${summary.totals.episodes} passed</title>
<style>body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;vertical-align:top;text-align:left}.ok{color:#176b2c}.bad{color:#a11}ul{margin:.2em 0;padding-left:1.2em}section{border-top:1px solid #ddd;margin-top:1em}code{background:#f3f3f3}</style></head>
<body><h1>Hamlet evaluation</h1>
<p>Agent <code>${e(summary.agent)}</code>, started ${e(summary.startedAt)}, ${summary.parallel} in parallel.<br>
<b>${summary.totals.passed}/${summary.totals.episodes}</b> episodes passed, mean score ${pct(summary.totals.meanScore)}.
Reset per episode: mean ${ms(t.meanResetMs)}, at most ${ms(t.maxResetMs)}; instances started in ${ms(t.poolStartMs)}, worlds made in ${ms(t.prepareMs)}, episodes ran in ${ms(t.episodesMs)}.</p>
<h2>Tasks</h2>
${taskSection(summary)}
<h2>Episodes that failed</h2>
${episodes || '<p>None.</p>'}
</body></html>
`;
}
