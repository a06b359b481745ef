// Snapshot files as an attacker writes them: the format is documented (docs/harness.md,
// "Worlds"), so anyone can build a file whose rows hash to its header's hash. These helpers
// build such files, and gzip bombs, for the hostile world suites.
import { createGzip, gzipSync } from 'node:zlib';
import { canonicalRow, hashTexts, tableText } from '../../src/console/world/canonical.js';

export interface CraftedTable {
  name: string;
  owner: string;
  key: string[];
  rows: Array<Record<string, unknown>>;
}

/** A well-formed snapshot of these tables (rows as given, in the order given), with a correct hash. */
export function craftSnapshot(
  tables: CraftedTable[],
  opts: { clock?: unknown; savedAt?: string; name?: string } = {},
): Buffer {
  const sorted = [...tables].sort((a, b) => (a.name < b.name ? -1 : 1));
  const texts = sorted.map((t) => tableText(t.rows.map((r) => canonicalRow(r))));
  const header = {
    format: 'hamlet-world/1',
    hash: hashTexts(sorted.map((t, i) => ({ name: t.name, text: texts[i] }))),
    savedAt: opts.savedAt ?? '2026-01-05T00:00:00.000Z',
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.clock !== undefined ? { clock: opts.clock } : {}),
    tables: sorted.map((t) => ({ name: t.name, owner: t.owner, key: t.key, rows: t.rows.length })),
  };
  return gzipSync(Buffer.concat([Buffer.from(JSON.stringify(header) + '\n'), ...texts.map((t) => Buffer.from(t))]), {
    level: 1,
  });
}

/** `size` bytes of one repeated byte, gzip'd (a bomb: a few hundred KB that inflate to hundreds of MB). */
export async function gzipBomb(byte: number, size: number, prefix = ''): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => gzip.on('end', resolve).on('error', reject));
  if (prefix) gzip.write(prefix);
  const chunk = Buffer.alloc(1 << 20, byte);
  for (let left = size; left > 0; left -= chunk.length) {
    if (!gzip.write(left >= chunk.length ? chunk : chunk.subarray(0, left)))
      await new Promise((r) => gzip.once('drain', r));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

/** A platform key row as the platform stores it (sha256 of the plaintext key). */
export function keyRow(opts: {
  id: string;
  service: string;
  name?: string | null;
  hash: string;
}): Record<string, unknown> {
  return {
    created_at: '2026-01-05T00:00:00.000Z',
    hash: opts.hash,
    hint: 'abcd',
    id: opts.id,
    name: opts.name ?? null,
    owner_id: null,
    revoked_at: null,
    service: opts.service,
  };
}
