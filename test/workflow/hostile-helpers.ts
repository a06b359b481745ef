// Shared pieces of the tests that attack the engine: a workflow whose graph loops forever,
// and a prober that keeps asking other services' /healthz while an attack runs.

/**
 * `start → A → B → A`: two No-ops feeding each other, after a Manual Trigger or a Webhook.
 * `pausing`: A waits 10 ms each time, so the loop stays small and only the timeout can end it.
 */
export function cycleWorkflow(opts: {
  name: string;
  webhookPath?: string;
  executionTimeout?: number;
  pausing?: boolean;
}) {
  const start = opts.webhookPath
    ? {
        name: 'Start',
        type: 'n8n-nodes-base.webhook',
        typeVersion: 2,
        position: [0, 0],
        parameters: { path: opts.webhookPath, httpMethod: 'POST', responseMode: 'lastNode' },
      }
    : { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
  return {
    name: opts.name,
    nodes: [
      start,
      opts.pausing
        ? {
            name: 'A',
            type: 'n8n-nodes-base.wait',
            typeVersion: 1.1,
            position: [200, 0],
            parameters: { amount: 0.01, unit: 'seconds' },
          }
        : { name: 'A', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [200, 0], parameters: {} },
      { name: 'B', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [400, 0], parameters: {} },
    ],
    connections: {
      Start: { main: [[{ node: 'A', type: 'main', index: 0 }]] },
      A: { main: [[{ node: 'B', type: 'main', index: 0 }]] },
      B: { main: [[{ node: 'A', type: 'main', index: 0 }]] },
    },
    settings: {
      executionOrder: 'v1',
      ...(opts.executionTimeout !== undefined ? { executionTimeout: opts.executionTimeout } : {}),
    },
  };
}

export interface ProbeResult {
  /** Latency of every probe, ms. */
  latencies: number[];
  /** Probes that failed or did not answer within the per-probe deadline. */
  failures: string[];
}

/**
 * Asks each URL's /healthz in turn until `until` settles (one request in flight at a time, so
 * a stalled event loop shows as one long probe). A probe slower than `deadlineMs` is a failure.
 */
export async function probeWhile(urls: string[], until: Promise<unknown>, deadlineMs = 2000): Promise<ProbeResult> {
  let done = false;
  void until.finally(() => (done = true)).catch(() => {});
  const latencies: number[] = [];
  const failures: string[] = [];
  for (let i = 0; !done; i++) {
    const url = `${urls[i % urls.length]}/healthz`;
    const t0 = performance.now();
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(deadlineMs) });
      await res.text();
      if (res.status !== 200) failures.push(`${url}: ${res.status}`);
    } catch (err) {
      failures.push(`${url}: ${(err as Error).message}`);
    }
    latencies.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 2));
  }
  return { latencies, failures };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
