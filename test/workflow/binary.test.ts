// Files through the workflow service's HTTP edges: multipart and raw webhook bodies become
// binary properties, the Code node reads and makes files through `this.helpers`, Respond to
// Webhook answers with a file's exact bytes. Hostile bodies (malformed multipart, thousands of
// parts, bodies over the limit) are refused with a 4xx and start no execution. What n8n 2.8.4
// does with the same requests is in the oracle's binary-* cases.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';

const BOUNDARY = 'hamletTestBoundary';
const MULTIPART = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

function multipart(parts: Array<{ name: string; filename?: string; type?: string; data: string | Buffer }>): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}\r\n`;
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(
      Buffer.from(head + '\r\n'),
      Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
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

function workflow(
  name: string,
  path: string,
  nodes: Array<{ name: string } & Record<string, unknown>>,
  webhookParams: Record<string, unknown> = {},
) {
  const all = [
    {
      id: 'w',
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      webhookId: `${path}-id`,
      parameters: {
        httpMethod: 'POST',
        path,
        responseMode: 'lastNode',
        responseData: 'allEntries',
        options: {},
        ...webhookParams,
      },
    },
    ...nodes.map((n, i) => ({ id: `n${i}`, position: [200 * (i + 1), 0], ...n })),
  ];
  const names = all.map((n) => n.name);
  const connections = Object.fromEntries(
    names.slice(0, -1).map((n, i) => [n, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
  );
  return { name, nodes: all, connections, settings: { executionOrder: 'v1' } };
}

let s: WorkflowTestServer;
const raw = async (path: string, body: Buffer | string, headers: Record<string, string>) => {
  const res = await fetch(`${s.url}/webhook/${path}`, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers,
  });
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
  await create(
    workflow('upload', 'upload', [
      { name: 'Files', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: DESCRIBE } },
    ]),
  );
  const make = `const bytes = Buffer.from($json.body.base64, 'base64');
return [{ json: {}, binary: { data: await this.helpers.prepareBinaryData(bytes, $json.body.name) } }];`;
  await create(
    workflow(
      'respond file',
      'respond-file',
      [
        { name: 'Make', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: make } },
        {
          name: 'Respond',
          type: 'n8n-nodes-base.respondToWebhook',
          typeVersion: 1.1,
          parameters: { respondWith: 'binary', options: {} },
        },
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
    const r = await raw(
      'upload',
      multipart([
        { name: 'title', data: 'Hi' },
        { name: 'doc', filename: 'a.bin', type: 'application/octet-stream', data: bytes },
        { name: 'note', filename: 'n.txt', type: 'text/plain', data: 'x\r\ny' },
      ]),
      MULTIPART,
    );
    expect(r.status).toBe(200);
    const [item] = r.json;
    expect(item.body).toEqual({ title: 'Hi' });
    expect(item.files.doc).toMatchObject({
      fileName: 'a.bin',
      mimeType: 'application/octet-stream',
      length: 256,
      base64: bytes.toString('base64'),
    });
    expect(Buffer.from(item.files.note.base64, 'base64').toString()).toBe('x\r\ny');
  });

  test('a large file (1 MB) goes through the Code sandbox byte for byte', async () => {
    const bytes = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7) & 255;
    const r = await raw(
      'upload',
      multipart([{ name: 'big', filename: 'big.bin', type: 'application/octet-stream', data: bytes }]),
      MULTIPART,
    );
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
    const r = await raw(
      'upload',
      multipart([{ name: 'huge', filename: 'h.bin', data: Buffer.alloc(17 * 1024 * 1024, 1) }]),
      MULTIPART,
    );
    expect(r.status).toBe(413);
  });
});

describe('Respond to Webhook with a file', () => {
  test('answers the exact bytes with the file MIME type', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from(Array.from({ length: 256 }, (_, i) => 255 - i)),
    ]);
    const r = await raw('respond-file', JSON.stringify({ base64: bytes.toString('base64') }), {
      'content-type': 'application/json',
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.bytes.equals(bytes)).toBe(true);
    const named = await raw(
      'respond-file',
      JSON.stringify({ base64: Buffer.from('a,b').toString('base64'), name: 'x.csv' }),
      { 'content-type': 'application/json' },
    );
    expect(named.headers.get('content-type')).toBe('text/csv');
    expect(named.bytes.toString()).toBe('a,b');
  });
});

describe('files above WORKFLOW_BINARY_SPILL_BYTES', () => {
  let t: WorkflowTestServer;
  let workflowId: string;
  const spilled = (executionId: string) => path.join(t.t.dataDir, 'workflow-binary', executionId);
  beforeAll(async () => {
    t = await startWorkflowServer({ env: { WORKFLOW_BINARY_SPILL_BYTES: '1000' } });
    // Upload → Wait (resumed by its webhook) → read the upload back from the Webhook node's stored output.
    const readBack = `const b = $('Webhook').first().binary ?? {};
return [{ json: Object.fromEntries(Object.entries(b).map(([k, v]) => [k, { data: v.data ?? null, id: v.id ?? null }])) }];`;
    const wf = workflow(
      'spill',
      'spill',
      [
        {
          name: 'Wait',
          type: 'n8n-nodes-base.wait',
          typeVersion: 1.1,
          webhookId: 'spill-wait',
          parameters: { resume: 'webhook' },
        },
        { name: 'Read', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: readBack } },
      ],
      { responseMode: 'onReceived' },
    );
    const r = await t.api('POST', '/workflows', wf);
    workflowId = r.body.id;
    expect((await t.api('POST', `/workflows/${workflowId}/activate`)).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
  });

  async function upload(files: Array<{ name: string; data: Buffer }>): Promise<string> {
    const before = new Set(
      ((await t.api('GET', `/executions?workflowId=${workflowId}`)).body.data as any[]).map((e) => e.id),
    );
    const res = await fetch(`${t.url}/webhook/spill`, {
      method: 'POST',
      body: new Uint8Array(
        multipart(files.map((f) => ({ ...f, filename: `${f.name}.bin`, type: 'application/octet-stream' }))),
      ),
      headers: MULTIPART,
    });
    expect(res.status).toBe(200);
    await t.t.hamlet.platform.jobs.idle();
    const list = (await t.api('GET', `/executions?workflowId=${workflowId}`)).body.data as any[];
    return list.find((e) => !before.has(e.id)).id;
  }

  test('a large file is stored once in the data directory, referenced by the saved execution, and read back when the run resumes', async () => {
    const big = Buffer.alloc(5000, 9);
    const small = Buffer.from('tiny');
    const id = await upload([
      { name: 'big', data: big },
      { name: 'small', data: small },
    ]);
    const waiting = (await t.api('GET', `/executions/${id}?includeData=true`)).body;
    expect(waiting.status).toBe('waiting');
    const stored = waiting.data.resultData.runData.Webhook[0].data.main[0][0].binary;
    expect(stored.big).toMatchObject({ data: 'filesystem-v2', fileName: 'big.bin', bytes: 5000 });
    expect(stored.big.id).toMatch(new RegExp(`^filesystem-v2:executions/${id}/[0-9a-f]{64}$`));
    expect(stored.small.data).toBe(small.toString('base64'));
    // The Webhook's output and the execution's start data hold the same file: one copy on disk.
    expect(readdirSync(spilled(id))).toHaveLength(1);

    expect(
      (await t.call('POST', `/webhook-waiting/${id}`, { body: '{}', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(200);
    await t.t.hamlet.platform.jobs.idle();
    const done = (await t.api('GET', `/executions/${id}?includeData=true`)).body;
    expect(done.status).toBe('success');
    const read = done.data.resultData.runData.Read[0].data.main[0][0].json;
    expect(read.big).toEqual({ data: big.toString('base64'), id: null });
    expect(read.small.data).toBe(small.toString('base64'));

    expect((await t.api('DELETE', `/executions/${id}`)).status).toBe(200);
    expect(existsSync(spilled(id))).toBe(false);
  }, 60_000);

  test('hostile: a reference naming another execution never reads that execution’s file', async () => {
    const first = await upload([{ name: 'secret', data: Buffer.alloc(3000, 7) }]);
    const ref = (await t.api('GET', `/executions/${first}?includeData=true`)).body.data.resultData.runData.Webhook[0]
      .data.main[0][0].binary.secret.id as string;
    // A second workflow whose Code writes that reference into its own output, then waits and reads it back.
    const plant = `return [{ json: {}, binary: { stolen: { mimeType: 'text/plain', data: 'filesystem-v2', id: ${JSON.stringify(ref)} } } }];`;
    const readBack = `const b = $('Plant').first().binary.stolen; return [{ json: { data: b.data ?? null } }];`;
    const wf = workflow(
      'plant',
      'plant',
      [
        { name: 'Plant', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: plant } },
        {
          name: 'Wait',
          type: 'n8n-nodes-base.wait',
          typeVersion: 1.1,
          webhookId: 'plant-wait',
          parameters: { resume: 'webhook' },
        },
        { name: 'Read', type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: readBack } },
      ],
      { responseMode: 'onReceived' },
    );
    const c = await t.api('POST', '/workflows', wf);
    await t.api('POST', `/workflows/${c.body.id}/activate`);
    await t.call('POST', '/webhook/plant', { body: '{}', headers: { 'content-type': 'application/json' } });
    await t.t.hamlet.platform.jobs.idle();
    const exec = ((await t.api('GET', `/executions?workflowId=${c.body.id}`)).body.data as any[])[0];
    await t.call('POST', `/webhook-waiting/${exec.id}`, {
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    await t.t.hamlet.platform.jobs.idle();
    const done = (await t.api('GET', `/executions/${exec.id}?includeData=true`)).body;
    expect(done.data.resultData.runData.Read[0].data.main[0][0].json).toEqual({ data: null });
  }, 60_000);
});
