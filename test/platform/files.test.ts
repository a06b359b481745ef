// Several processes starting at once on one data directory each create the generated files
// (the STARTTLS certificate and key, the credential key) if missing. Each must end up with the
// same complete files: never a half-written one, never a certificate whose key is not there
// yet (the old code failed this test with ENOENT), never two different pairs.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createOnce } from '../../src/platform/files.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ROOT = path.resolve(import.meta.dirname, '../..');
const CHILD = `
  const { smtpCertificate } = await import(${JSON.stringify(path.join(ROOT, 'src/services/mail/smtp/tls.ts'))});
  const { CredentialCipher } = await import(${JSON.stringify(path.join(ROOT, 'src/services/workflow/credentials/cipher.ts'))});
  const logger = { info() {}, warn() {}, error() {} };
  while (Date.now() < Number(process.env.START)) {} // all children begin at the same moment
  const pem = smtpCertificate({ domains: ['mail.test'] }, process.env.DIR, new Date(), logger);
  const cipher = CredentialCipher.load(undefined, process.env.DIR);
  const sealed = cipher.encrypt({ ok: true });
  process.stdout.write(JSON.stringify({ cert: pem.cert, key: pem.key, sealed }));
`;

function child(start: number): Promise<{ cert: string; key: string; sealed: string }> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', CHILD],
      { cwd: ROOT, env: { ...process.env, DIR: dir, START: String(start) }, timeout: 60_000 },
      (err, stdout, stderr) =>
        err
          ? reject(new Error(`${err.message}\n${stderr}`))
          : resolve(JSON.parse(stdout) as { cert: string; key: string; sealed: string }),
    ),
  );
}

it('eight processes starting at once all read the one complete certificate pair and credential key', async () => {
  const start = Date.now() + 8_000; // after every child has loaded its modules
  const results = await Promise.all(Array.from({ length: 8 }, () => child(start)));
  for (const r of results) {
    expect(r.cert).toBe(results[0].cert);
    expect(r.key).toBe(results[0].key);
    expect(r.key).toMatch(/^-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----\s*$/);
  }
  // One credential key: what one process sealed, another opens.
  const { CredentialCipher } = await import('../../src/services/workflow/credentials/cipher.js');
  const cipher = CredentialCipher.load(undefined, dir);
  for (const r of results) expect(cipher.decrypt(r.sealed)).toEqual({ ok: true });
  // No temporary files left behind.
  expect(readdirSync(path.join(dir, 'mail-tls')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
}, 120_000);

it('createOnce places the first content and keeps it', () => {
  const file = path.join(dir, 'once.txt');
  expect(createOnce(file, 'first')).toBe(true);
  expect(createOnce(file, 'second')).toBe(false);
  expect(readdirSync(dir).filter((f) => f.startsWith('once.txt'))).toEqual(['once.txt']);
});
