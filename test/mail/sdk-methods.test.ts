// Every method of every area of the agentmail npm SDK (0.5.27), listed from the SDK itself, is
// either driven against Hamlet by a test under test/mail (conformance.test.ts for the core,
// conformance-surface.test.ts for the rest, websocket.test.ts for the socket, ...) or named
// below as not offered, with why. A method a later SDK adds fails this test until it is one or
// the other. The ones not offered are called too: each must get a 404 in AgentMail's envelope
// (the SDK's NotFoundError where the method declares one), not a crash or a 500.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { AgentMailClient, AgentMailError } from 'agentmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMail, type MailTestEnv } from './helpers.js';

/**
 * Not offered: none today. ("Sign in with AgentMail", inboxes.authorize, accounts.* and
 * providers.*, was the last; conformance-surface.test.ts drives it.)
 */
const NOT_OFFERED: Record<string, (c: AgentMailClient) => Promise<unknown>> = {};

/** The SDK's methods as dotted paths (inboxes.messages.send), found by walking its client. */
function sdkMethods(client: object): string[] {
  const out: string[] = [];
  const walk = (obj: object, prefix: string, depth: number) => {
    const seen = new Set<string>();
    for (
      let proto = Object.getPrototypeOf(obj);
      proto && proto !== Object.prototype;
      proto = Object.getPrototypeOf(proto)
    ) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        if (seen.has(name) || name === 'constructor' || name === 'fetch' || name.startsWith('_')) continue;
        seen.add(name);
        const d = Object.getOwnPropertyDescriptor(proto, name)!;
        const full = prefix ? `${prefix}.${name}` : name;
        if (d.get) {
          const v = (obj as Record<string, unknown>)[name];
          if (v && typeof v === 'object' && depth < 4) walk(v, full, depth + 1);
        } else if (typeof d.value === 'function') out.push(full);
      }
    }
  };
  walk(client, '', 0);
  return out.sort();
}

describe('agentmail npm SDK: every method accounted for', () => {
  let env: MailTestEnv;
  beforeAll(async () => {
    env = await startMail();
  });
  afterAll(async () => {
    await env?.t.destroy();
  });

  it('each method is called by a mail test, or listed as not offered', () => {
    const dir = import.meta.dirname;
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith('.test.ts') && f !== path.basename(import.meta.filename))
      .map((f) => ({ file: f, text: readFileSync(path.join(dir, f), 'utf8') }));
    const methods = sdkMethods(env.client);
    expect(methods.length).toBeGreaterThan(130);
    const uncovered = methods.filter((m) => !(m in NOT_OFFERED) && !sources.some((s) => s.text.includes(`.${m}(`)));
    expect(uncovered).toEqual([]);
    // The list of the not offered holds only real methods, none of which a test drives.
    for (const m of Object.keys(NOT_OFFERED)) {
      expect(methods, m).toContain(m);
      expect(
        sources.filter((s) => s.text.includes(`.${m}(`)).map((s) => s.file),
        m,
      ).toEqual([]);
    }
  });

  it('domains.getZoneFile answers a file the SDK reads every way its BinaryResponse offers', async () => {
    // The SDK hands the zone file over as a BinaryResponse: arrayBuffer(), blob(), bytes() and
    // stream(), and no text() (so `(await getZoneFile(id)).text()` fails in the SDK itself).
    const domain = await env.client.domains.create({ domain: 'zone.example' });
    const readers: Record<
      string,
      (z: Awaited<ReturnType<AgentMailClient['domains']['getZoneFile']>>) => Promise<string>
    > = {
      arrayBuffer: async (z) => Buffer.from(await z.arrayBuffer()).toString(),
      blob: async (z) => (await z.blob()).text(),
      bytes: async (z) => Buffer.from(await z.bytes!()).toString(),
      stream: async (z) => new Response(z.stream()).text(),
    };
    for (const [how, read] of Object.entries(readers)) {
      const zone = await env.client.domains.getZoneFile(domain.domainId);
      expect(zone.bodyUsed, how).toBe(false);
      const text = await read(zone);
      expect(text, how).toMatch(/^\$ORIGIN zone\.example\.$/m);
      expect(text, how).toMatch(/\tIN\tTXT\t"v=DKIM1; k=rsa; p=/);
      expect(zone.bodyUsed, how).toBe(true);
    }
    const raw = await env.client.domains.getZoneFile(domain.domainId).withRawResponse();
    expect(raw.rawResponse.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.rawResponse.headers.get('content-disposition')).toBe('attachment; filename="zone.example.zone"');
    expect('text' in raw.data).toBe(false);
  });

  it.skipIf(Object.keys(NOT_OFFERED).length === 0)('a method not offered gets a 404 in the envelope', async () => {
    for (const [name, call] of Object.entries(NOT_OFFERED)) {
      const err = await call(env.client).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(AgentMailError);
      expect((err as AgentMailError).statusCode, name).toBe(404);
      expect((err as AgentMailError).body, name).toMatchObject({ name: 'NotFoundError' });
    }
  });
});
