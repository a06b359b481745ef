#!/usr/bin/env node
// Where the test suite's time goes, read from vitest's JSON report:
//   npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/times.json
//   node scripts/test-times.mjs .tmp/times.json [--top 25]
// prints the wall time, the summed file time (what the workers were busy with), the slowest files
// and the slowest tests. With two reports (`before.json after.json`) it prints the files whose
// time changed most, side by side. A file's time is its end minus its start as vitest recorded
// them, so it includes its hooks (servers started in beforeAll/beforeEach), not only its tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const files = args.filter((a, i) => !a.startsWith('--') && (topAt < 0 || i !== topAt + 1));
if (files.length < 1 || files.length > 2 || !Number.isFinite(top)) {
  console.error('usage: node scripts/test-times.mjs <report.json> [<after.json>] [--top N]');
  process.exit(2);
}

const ROOT = process.cwd();
const seconds = (ms) => (ms / 1000).toFixed(1).padStart(7);

/** One report as { wallMs, busyMs, files: Map<relative path, { ms, tests, failed }>, tests: [...] }. */
function load(file) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const byFile = new Map();
  const tests = [];
  let first = Infinity;
  let last = 0;
  for (const result of report.testResults ?? []) {
    const name = path.relative(ROOT, result.name);
    const ms = Math.max(0, (result.endTime ?? 0) - (result.startTime ?? 0));
    if (result.startTime) first = Math.min(first, result.startTime);
    if (result.endTime) last = Math.max(last, result.endTime);
    const assertions = result.assertionResults ?? [];
    byFile.set(name, {
      ms,
      tests: assertions.length,
      failed:
        assertions.filter((a) => a.status === 'failed').length +
        (result.status === 'failed' && assertions.length === 0 ? 1 : 0),
    });
    for (const a of assertions) tests.push({ file: name, title: a.fullName ?? a.title, ms: a.duration ?? 0 });
  }
  const busyMs = [...byFile.values()].reduce((sum, f) => sum + f.ms, 0);
  return {
    wallMs: last > first ? last - first : 0,
    busyMs,
    files: byFile,
    tests,
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0),
  };
}

function summary(label, r) {
  console.log(`${label}: ${r.files.size} files, ${r.tests.length} tests (${r.passed} passed, ${r.failed} failed)`);
  console.log(`  wall ${seconds(r.wallMs).trim()} s, summed file time ${seconds(r.busyMs).trim()} s`);
}

const before = load(files[0]);
if (files.length === 1) {
  summary(files[0], before);
  console.log(`\nslowest ${top} files (s, tests):`);
  for (const [name, f] of [...before.files].sort((a, b) => b[1].ms - a[1].ms).slice(0, top)) {
    console.log(`${seconds(f.ms)}  ${String(f.tests).padStart(4)}  ${name}${f.failed ? `  (${f.failed} failed)` : ''}`);
  }
  console.log(`\nslowest ${top} tests (s):`);
  for (const t of before.tests.sort((a, b) => b.ms - a.ms).slice(0, top)) {
    console.log(`${seconds(t.ms)}  ${t.file} > ${t.title}`);
  }
} else {
  const after = load(files[1]);
  summary(`before ${files[0]}`, before);
  summary(`after  ${files[1]}`, after);
  const names = new Set([...before.files.keys(), ...after.files.keys()]);
  const rows = [...names].map((name) => {
    const b = before.files.get(name);
    const a = after.files.get(name);
    return { name, b: b?.ms, a: a?.ms, delta: (a?.ms ?? 0) - (b?.ms ?? 0), testsB: b?.tests, testsA: a?.tests };
  });
  console.log(`\n${top} largest changes (before s, after s, change s, tests before→after):`);
  for (const r of rows.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta)).slice(0, top)) {
    const tests = r.testsB === r.testsA ? String(r.testsA) : `${r.testsB ?? '-'}→${r.testsA ?? '-'}`;
    console.log(
      `${r.b === undefined ? '      -' : seconds(r.b)} ${r.a === undefined ? '      -' : seconds(r.a)} ${seconds(r.delta)}  ${tests.padStart(7)}  ${r.name}`,
    );
  }
  console.log(
    `\nsummed file time: ${seconds(before.busyMs).trim()} s → ${seconds(after.busyMs).trim()} s; wall ${seconds(before.wallMs).trim()} s → ${seconds(after.wallMs).trim()} s`,
  );
}
