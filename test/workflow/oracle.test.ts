// The oracle's hand-made cases (test/fixtures/n8n-oracle): node by node and engine semantics,
// with the outputs real n8n 2.8.4 produced for them (`npm run oracle` records them; see
// scripts/oracle/). Cases where the engine still differs are listed, each with its reason, in
// known-differences.json.
//
// The HTTP Request cases call the oracle's echo server at its fixed loopback address, as n8n
// did while recording. The suite's server runs with HAMLET_ALLOW_INTERNAL_REQUESTS=1
// (corpus-suite.ts): the SSRF guard would otherwise refuse 127.0.0.1, and the cases are about
// what the node sends and returns, not about the guard (test/platform covers that).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { defineCorpusSuite } from './corpus-suite.js';
import { startEchoServer } from '../fixtures/n8n-oracle/echo-server.mjs';

const dir = path.resolve(import.meta.dirname, '../fixtures/n8n-oracle');
const knownDifferences = JSON.parse(readFileSync(path.join(dir, 'known-differences.json'), 'utf8')) as Record<
  string,
  string
>;

// Registered before the suite's own hooks, so the echo server is up before any case runs. The
// shared server leaves after 30 s without a request, and in a full run on a busy machine the
// first HTTP case came later than that (70 of them failed): the suite calls it every 10 s while it
// runs, which keeps it, or starts it again.
let stopEcho: (() => Promise<void>) | undefined;
let keepEcho: NodeJS.Timeout | undefined;
beforeAll(async () => {
  stopEcho = await startEchoServer();
  keepEcho = setInterval(() => void startEchoServer().catch(() => {}), 10_000);
});
afterAll(async () => {
  clearInterval(keepEcho);
  await stopEcho?.();
});

defineCorpusSuite({ title: 'n8n oracle cases', dir, knownDifferences, checkImport: true });
