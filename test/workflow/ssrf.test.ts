// Issue 9, observation 4: SSRF through redirects. A "public" host (127.0.0.2, judged public by
// the test's address policy, see helpers/outbound-servers.ts) redirects to an internal service
// in every notation; the HTTP Request node, each sibling-service node with a user-given base
// URL, a trusted sibling URL that redirects elsewhere, and mail webhook deliveries must all
// refuse it, through real workflow runs and real deliveries, without the internal service ever
// seeing a request.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startInternal, startRedirector, usePublicLoopbackPolicy } from '../helpers/outbound-servers.js';
import { startWorkflowServer, type WorkflowTestServer } from './helpers.js';
import { waitFor } from '../helpers/wait.js';

let s: WorkflowTestServer;
let internal: Awaited<ReturnType<typeof startInternal>>;
let pub: Awaited<ReturnType<typeof startRedirector>>;
let other: Awaited<ReturnType<typeof startRedirector>>;
let trusted: Awaited<ReturnType<typeof startRedirector>>;
let restore: () => void;

beforeAll(async () => {
  restore = usePublicLoopbackPolicy();
  internal = await startInternal();
  pub = await startRedirector();
  other = await startRedirector();
  trusted = await startRedirector('127.0.0.1'); // a sibling service the operator configured
  s = await startWorkflowServer({
    services: ['workflow', 'mail'],
    env: {
      MAIL_DOMAIN: 'mail.test',
      MAIL_WEBHOOK_RETRY_SCHEDULE: '100ms,200ms',
      // The operator's home URL redirects to another (internal) origin; the blog's stays on its own.
      HAMLET_HOME_URL: `${trusted.to(`${internal.v4.url}/`, 307)}&path=`,
      HAMLET_HOME_API_KEY: 'operator-home-key',
      HAMLET_BLOG_URL: `${trusted.to('/echo', 307)}&path=`,
      HAMLET_BLOG_API_KEY: 'operator-blog-key',
    },
  });
}, 60_000);
afterAll(async () => {
  restore?.();
  await s?.stop();
  await Promise.all([internal?.close(), pub?.close(), other?.close(), trusted?.close()]);
});

/** The internal service in each notation the issue names, and by name. */
const forms = (): Record<string, string> => ({
  '127.0.0.1': `http://127.0.0.1:${internal.v4.port}/`,
  '[::1]': `http://[::1]:${internal.v6.port}/`,
  '0.0.0.0': `http://0.0.0.0:${internal.v4.port}/`,
  '2130706433': `http://2130706433:${internal.v4.port}/`,
  '[::ffff:127.0.0.1]': `http://[::ffff:127.0.0.1]:${internal.v4.port}/`,
  localhost: `http://localhost:${internal.v4.port}/`,
});

const trigger = {
  name: 'Start',
  type: 'n8n-nodes-base.manualTrigger',
  typeVersion: 1,
  position: [0, 0],
  parameters: {},
};

/** Runs Start → the given node through the API; returns the execution. */
async function runNode(call: { type: string; typeVersion?: number; parameters: Record<string, unknown> }) {
  const wf = await s.api('POST', '/workflows', {
    name: `ssrf ${call.type}`,
    nodes: [trigger, { typeVersion: 1, ...call, name: 'Call', position: [200, 0] }],
    connections: { Start: { main: [[{ node: 'Call', type: 'main', index: 0 }]] } },
    settings: { executionOrder: 'v1' },
  });
  expect(wf.status, JSON.stringify(wf.body)).toBe(200);
  const e = await s.api('POST', `/workflows/${wf.body.id}/execute`, {});
  expect(e.status, JSON.stringify(e.body)).toBe(200);
  return e.body;
}

const output = (exec: any) => exec.data.resultData.runData.Call?.[0]?.data?.main?.[0]?.map((i: any) => i.json);

/** The run failed naming the operator's switch, and the internal service saw nothing. */
async function expectRefused(label: string, call: Parameters<typeof runNode>[0]) {
  const before = internal.hits();
  const exec = await runNode(call);
  const error = exec.data.resultData.error;
  expect(exec.status, `${label}: ${JSON.stringify(output(exec) ?? error)}`).toBe('error');
  expect(`${error.message} ${error.description ?? ''}`, label).toMatch(
    /internal addresses are blocked; set HAMLET_ALLOW_INTERNAL_REQUESTS=1/,
  );
  expect(internal.hits(), label).toBe(before);
}

const httpRequest = (url: string, options: Record<string, unknown> = {}) => ({
  type: 'n8n-nodes-base.httpRequest',
  typeVersion: 4.2,
  parameters: { url, options },
});

describe('HTTP Request node', () => {
  test('follows a redirect to a public place (control)', async () => {
    const exec = await runNode(httpRequest(pub.to(`${other.url}/landed`)));
    expect(exec.status).toBe('success');
    expect(output(exec)).toMatchObject([{ url: '/landed', method: 'GET' }]);
  });

  test('refuses a redirect to every internal form, 302 and 307', async () => {
    for (const [form, url] of Object.entries(forms())) {
      await expectRefused(`302 → ${form}`, httpRequest(pub.to(url, 302)));
      await expectRefused(`307 → ${form}`, httpRequest(pub.to(url, 307)));
    }
  });

  test('refuses an internal address after a second redirect', async () => {
    for (const [form, url] of Object.entries(forms()))
      await expectRefused(`302 → 301 → ${form}`, httpRequest(pub.to(other.to(url, 301))));
  });

  test('refuses the mapped form as the first URL too', async () => {
    await expectRefused('[::ffff:127.0.0.1] direct', httpRequest(forms()['[::ffff:127.0.0.1]']));
  });

  test('v1 parameters: the same guard', async () => {
    await expectRefused('v1 302 → 127.0.0.1', {
      type: 'n8n-nodes-base.httpRequest',
      typeVersion: 1,
      parameters: { url: pub.to(forms()['127.0.0.1']), responseFormat: 'json', options: {} },
    });
  });

  test('honours followRedirects and maxRedirects (n8n: options.redirect.redirect)', async () => {
    const noFollow = await runNode(
      httpRequest(pub.to(`${other.url}/landed`), {
        redirect: { redirect: { followRedirects: false } },
        response: { response: { fullResponse: true, neverError: true } },
      }),
    );
    expect(noFollow.status).toBe('success');
    expect(output(noFollow)).toMatchObject([{ statusCode: 302, headers: { location: `${other.url}/landed` } }]);
    const twice = pub.to(other.to(`${pub.url}/landed`));
    const limited = await runNode(
      httpRequest(twice, { redirect: { redirect: { followRedirects: true, maxRedirects: 1 } } }),
    );
    expect(limited.status).toBe('error');
    expect(limited.data.resultData.error.message).toMatch(/Maximum number of redirects exceeded/);
    const enough = await runNode(
      httpRequest(twice, { redirect: { redirect: { followRedirects: true, maxRedirects: 2 } } }),
    );
    expect(output(enough)).toMatchObject([{ url: '/landed' }]);
  });
});

describe('sibling-service nodes', () => {
  // Each node POSTs to <baseUrl><path>; the base URL here is the public redirector with the
  // path swallowed by a query parameter, so every call is redirected to the internal target.
  const nodes: Array<{ type: string; parameters: Record<string, unknown> }> = [
    { type: 'hamlet.blog', parameters: { title: 'Hello', content: 'x' } },
    { type: 'hamlet.mail', parameters: { inboxId: 'a@mail.test', to: 'b@mail.test', subject: 's', text: 't' } },
    { type: 'hamlet.community', parameters: { community: 'general', title: 'Hi', content: 'x' } },
    { type: 'hamlet.home', parameters: { domain: 'light', service: 'turn_on', entityId: 'light.kitchen' } },
  ];

  for (const n of nodes) {
    test(`${n.type} with a user-given base URL refuses redirects (and double redirects) to every internal form`, async () => {
      for (const [form, url] of Object.entries(forms())) {
        for (const [how, base] of [
          ['302', pub.to(url, 302)],
          ['307', pub.to(url, 307)],
          ['307 → 302', pub.to(other.to(url, 302), 307)],
        ] as const) {
          await expectRefused(`${n.type} ${how} → ${form}`, {
            type: n.type,
            parameters: { ...n.parameters, baseUrl: `${base}&path=`, apiKey: 'user-key' },
          });
        }
      }
    });
  }

  test("the operator's service URL may be this machine, but its redirect to another origin is guarded", async () => {
    const sameOrigin = await runNode({ type: 'hamlet.blog', parameters: { title: 'Hello', content: 'x' } });
    expect(sameOrigin.status, JSON.stringify(sameOrigin.data.resultData.error)).toBe('success');
    expect(output(sameOrigin)).toMatchObject([
      { url: '/echo', method: 'POST', authorization: 'Bearer operator-blog-key' },
    ]);
    await expectRefused('HAMLET_HOME_URL 307 → 127.0.0.1', {
      type: 'hamlet.home',
      parameters: { domain: 'light', service: 'turn_on' },
    });
  });
});

describe('mail webhook deliveries', () => {
  // Deliveries never follow redirects (a 3xx is a failed attempt, as with Svix), so the hop
  // to guard is the endpoint itself, by address or by name: refused at create when it names
  // an internal address, and at every delivery for what only shows later.
  test('an endpoint that redirects inward, names an internal address or a local name is never reached', async () => {
    const key = (await s.t.hamlet.platform.keys.create('mail')).key;
    const mail = s.t.url('mail');
    const send = async (method: string, path: string, body: unknown) => {
      const res = await fetch(mail + path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    };
    const call = async (method: string, path: string, body: unknown) => {
      const res = await send(method, path, body);
      expect(res.status, path).toBeLessThan(300);
      return res.body;
    };
    const inbox = (await call('POST', '/v0/inboxes', { username: 'hooked' })).inbox_id as string;
    const hook = async (url: string) =>
      (await call('POST', '/v0/webhooks', { url, event_types: ['message.received'], inbox_ids: [inbox] }))
        .webhook_id as string;
    // An internal address or a local name is refused at once, when the webhook is created
    // (issue 15), naming the switch that would allow it.
    for (const url of [forms()['[::ffff:127.0.0.1]'], forms().localhost, forms()['2130706433']]) {
      const refused = await send('POST', '/v0/webhooks', {
        url,
        event_types: ['message.received'],
        inbox_ids: [inbox],
      });
      expect(refused.status, url).toBe(400);
      expect(refused.body.message, url).toMatch(/HAMLET_ALLOW_INTERNAL_REQUESTS=1/);
    }
    // A public endpoint that redirects inward can only be caught at delivery.
    await hook(pub.to(forms()['127.0.0.1'], 307));
    await hook(pub.to(other.to(forms()['[::1]'], 308), 307));
    await hook(`${pub.url}/control`);
    const before = internal.hits();
    await call('POST', `/v0/inboxes/${encodeURIComponent(inbox)}/messages/send`, {
      to: [inbox],
      subject: 'ping',
      text: 'ping',
    });

    // The control endpoint got the event; every delivery has been attempted at least once.
    await waitFor(() => pub.seen.filter((r) => r.url === '/control' && r.method === 'POST').length === 1, {
      message: 'one POST /control',
    });
    await waitFor(() => pub.seen.filter((r) => r.url.startsWith('/to?') && r.method === 'POST').length >= 2, {
      message: 'two POSTs to /to',
    });
    await s.t.hamlet.platform.jobs.idle();
    expect(internal.hits()).toBe(before);
  });
});
