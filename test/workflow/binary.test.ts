// Files through the workflow service's HTTP edges: multipart and raw webhook bodies become
// binary properties, the Code node reads and makes files through `this.helpers`, Respond to
// Webhook answers with a file's exact bytes. Hostile bodies (malformed multipart, thousands of
// parts, bodies over the limit) are refused with a 4xx and start no execution. What n8n 2.8.4
// does with the same requests is in the oracle's binary-* cases.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';

const BOUNDARY = 'hamletTestBoundary';
const MULTIPART = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

function multipart(parts: Array<{ name: string; filename?: string; type?: string; data: string | Buffer }>): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}\r\n`;
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(Buffer.from(head + '\r\n'), Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const DESCRIBE = `const out = [];
const items = $input.all();
for (let i = 0; i < items.length; i++) {
  const files = {};
  for (const [key, b] of Object.entries(items[i].binary ?? {})) {
    const buf = await this.helpers.getBinaryDataBuffer(i, key);
    files[key] = { fileName: b.fileName ?? null, mimeType: b.mimeType, fileExtension: b.fileExtension, length: buf.length, base64: buf.toString('base64') };
  }
  out.push({ json: { body: items[i].json.body, files } });
}
return out;`;

function workflow(name: string, path: string, nodes: Array<{ name: string } & Record<string, unknown>>, webhookParams: Record<string, unknown> = {}) {
  const all = [
    { id: 'w', name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: `${path}-id`, parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'allEntries', options: {}, ...webhookParams } },
    ...nodes.map((n, i) => ({ id: `n${i}`, position: [200 * (i + 1), 0], ...n })),
  ];
  const names = all.map((n) => n.name as string);
  const connections = Object.fromEntries(names.slice(0, -1).map((n, i) => [n, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]));
  return { name, nodes: all, connections, settings: { executionOrder: 'v1' } };
}

let s: WorkflowTestServer;
const raw = async (path: string, body: Buffer | string, headers: Record<string, string>) => {
  const res = await fetch(`${s.url}/webhook/${path}`, { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: any;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    /* not JSON */
  }
  return { status: res.status, bytes, json, headers: res.headers };
};
const executions = async () => ((await s.api('GET', '/executions?limit=250')).body.data as unknown[]).length;

beforeAll(async () => {
  s = await startWorkflowServer();
  const create = async (wf: unknown) => {
    const r = await s.api('POST', '/workflows', wf);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await s.api('POST', `/workflows/${r.body.id}/activate`)).status).toBe(200);
  };
  await create(workflow('upload', 'upload', [{ name: 'Files', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: DESCRIBE } }]));
  const make = `const bytes = Buffer.from($json.body.base64, 'base64');
return [{ json: {}, binary: { data: await this.helpers.prepareBinaryData(bytes, $json.body.name) } }];`;
  await create(
    workflow(
      'respond file',
      'respond-file',
      [
        { name: 'Make', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: make } },
        { name: 'Respond', type: 'n8n-nodes-base.respondToWebhook', typeVersion: 1.1, parameters: { respondWith: 'binary', options: {} } },
      ],
      { responseMode: 'responseNode' },
    ),
  );
}, 60_000);
afterAll(async () => {
  await s?.stop();
});

describe('multipart webhook bodies', () => {
  test('fields go to body, files to binary properties with their exact bytes', async () => {
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const r = await raw('upload', multipart([{ name: 'title', data: 'Hi' }, { name: 'doc', filename: 'a.bin', type: 'application/octet-stream', data: bytes }, { name: 'note', filename: 'n.txt', type: 'text/plain', data: 'x\r\ny' }]), MULTIPART);
    expect(r.status).toBe(200);
    const [item] = r.json;
    expect(item.body).toEqual({ title: 'Hi' });
    expect(item.files.doc).toMatchObject({ fileName: 'a.bin', mimeType: 'application/octet-stream', length: 256, base64: bytes.toString('base64') });
    expect(Buffer.from(item.files.note.base64, 'base64').toString()).toBe('x\r\ny');
  });

  test('a large file (1 MB) goes through the Code sandbox byte for byte', async () => {
    const bytes = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 255;
    const r = await raw('upload', multipart([{ name: 'big', filename: 'big.bin', type: 'application/octet-stream', data: bytes }]), MULTIPART);
    expect(r.status, JSON.stringify(r.json)?.slice(0, 300)).toBe(200);
    expect(r.json[0].files.big.length).toBe(bytes.length);
    expect(r.json[0].files.big.base64).toBe(bytes.toString('base64'));
  }, 60_000);

  test('hostile: malformed multipart is a 400 and starts nothing', async () => {
    const before = await executions();
    for (const body of [
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="a"\r\n\r\nno closing boundary`,
      `--${BOUNDARY}\r\nno headers end`,
      `no boundary at all`,
      `--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nnameless\r\n--${BOUNDARY}--\r\n`,
    ]) {
      const r = await raw('upload', body, MULTIPART);
      expect(r.status, body).toBe(400);
      expect(r.json.message).toMatch(/^The multipart body could not be read: /);
    }
    const r = await raw('upload', multipart([{ name: 'a', data: '1' }]), { 'content-type': 'multipart/form-data' });
    expect(r.status).toBe(400);
    expect(await executions()).toBe(before);
  });

  test('hostile: thousands of tiny parts are refused', async () => {
    const before = await executions();
    const parts = Array.from({ length: 5000 }, (_, i) => ({ name: `f${i}`, filename: `${i}.txt`, data: 'x' }));
    const r = await raw('upload', multipart(parts), MULTIPART);
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('more than 1000 parts');
    expect(await executions()).toBe(before);
  });

  test('hostile: a body over the service limit (16 MB) is a 413', async () => {
    const r = await raw('upload', multipart([{ name: 'huge', filename: 'h.bin', data: Buffer.alloc(17 * 1024 * 1024, 1) }]), MULTIPART);
    expect(r.status).toBe(413);
  });
});

describe('Respond to Webhook with a file', () => {
  test('answers the exact bytes with the file MIME type', async () => {
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i))]);
    const r = await raw('respond-file', JSON.stringify({ base64: bytes.toString('base64') }), { 'content-type': 'application/json' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.bytes.equals(bytes)).toBe(true);
    const named = await raw('respond-file', JSON.stringify({ base64: Buffer.from('a,b').toString('base64'), name: 'x.csv' }), { 'content-type': 'application/json' });
    expect(named.headers.get('content-type')).toBe('text/csv');
    expect(named.bytes.toString()).toBe('a,b');
  });
});
