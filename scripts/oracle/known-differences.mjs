// Rewrites test/fixtures/n8n-oracle/known-differences.json from a vitest run of
// test/workflow/oracle.test.ts (its summary lists each differing case and its first problems):
//   npx vitest run test/workflow/oracle.test.ts > oracle.log; node scripts/oracle/known-differences.mjs oracle.log
// A reason written by hand (in `reasons.json` next to it, by case or by workflow) wins over the
// first problem line of the run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FILE = join(ROOT, 'test/fixtures/n8n-oracle/known-differences.json');
const REASONS = join(dirname(fileURLToPath(import.meta.url)), 'reasons.json');
// Colour codes (ESC [ … m) are removed first.
const ESC = String.fromCharCode(27);
const log = readFileSync(process.argv[2], 'utf8')
  .split(ESC)
  .map((part, i) => (i === 0 ? part : part.replace(/^\[[0-9;]*m/, '')))
  .join('');
const reasons = existsSync(REASONS) ? JSON.parse(readFileSync(REASONS, 'utf8')) : {};
const known = JSON.parse(readFileSync(FILE, 'utf8'));
const lines = log.split('\n');
let added = 0;
for (let i = 0; i < lines.length; i++) {
  const m = /^ {2}FAIL (\S+\/.+)$/.exec(lines[i]);
  if (!m) continue;
  const name = m[1].trim();
  const first = (lines[i + 1] ?? '').trim();
  known[name] = reasons[name] ?? reasons[name.split('/')[0]] ?? `differs from n8n: ${first}`.slice(0, 240);
  added++;
}
const sorted = Object.fromEntries(Object.entries(known).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(FILE, JSON.stringify(sorted, null, 2) + '\n');
console.log(`${added} differing cases written; ${Object.keys(sorted).length} known differences in all`);
