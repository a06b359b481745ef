// `hamlet start` loads only what serving needs: libraries that only some requests, inputs or
// deployments use load on their first use (src/platform/optional-modules.ts). Each of them was
// loaded by every start before, at a cost of about a third of the start's modules.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CLI_ARGS } from '../helpers/cli.js';
import { ANY_FREE_PORT } from '../helpers/ports.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'hamlet-start-modules-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Packages, or a package's parts (a path prefix), that a start must not load. */
const ON_FIRST_USE = [
  'mqtt',
  'undici',
  'mailparser',
  'sanitize-html',
  'markdown-it',
  'nodemailer/lib/nodemailer.js',
  'nodemailer/lib/mail-composer/',
  'nodemailer/lib/dkim/',
  'email-reply-parser',
  'xml2js',
  'node-html-parser',
  'html-to-text',
  'node-html-markdown',
  'showdown',
  'highlight.js',
  'ioredis',
  'pg',
  'pino-pretty',
  'bullmq',
  'pdfjs-dist',
];

it('a default start of every service loads none of the libraries kept for first use', async () => {
  const listFile = path.join(tmp, 'loaded.json');
  const hook = path.resolve(import.meta.dirname, '../helpers/loaded-packages.mjs');
  const child = spawn(process.execPath, ['--import', hook, ...CLI_ARGS, 'start'], {
    env: {
      ...process.env,
      ...ANY_FREE_PORT,
      HAMLET_DATA_DIR: path.join(tmp, 'data'),
      HAMLET_LOG_LEVEL: 'warn',
      HAMLET_TEST_LOADED_PACKAGES: listFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // The banner: one "<service> <label> <url>" line per listener; the console's comes last.
  await new Promise<void>((resolve, reject) => {
    const check = () => /^console\s+\S+\s+http\S+$/m.test(out) && resolve();
    child.stdout.on('data', check);
    void exited.then((code) => reject(new Error(`hamlet start exited with ${code}:\n${out}`)));
  });
  child.kill('SIGTERM');
  await exited;
  const loaded = JSON.parse(readFileSync(listFile, 'utf8')) as string[];
  expect(loaded).toContain('fastify/fastify.js'); // the list is real
  const kept = (file: string) => ON_FIRST_USE.some((part) => file.startsWith(part.includes('/') ? part : `${part}/`));
  expect(loaded.filter(kept)).toEqual([]);
});
