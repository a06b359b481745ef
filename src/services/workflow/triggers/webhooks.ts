// The production webhooks of active workflows, in memory: `METHOD path` → workflow and node.
// Static paths are one map lookup; paths with `:param` segments are matched in a short list.
import type { WorkflowNode } from '../engine/types.js';
import { nodeRegistry } from '../nodes/registry.js';
import type { PreparedWorkflow } from '../workflows/model.js';

export interface WebhookTarget {
  workflowId: string;
  node: WorkflowNode;
  /** Output index for this method (Webhook v2 with several methods has one output per method). */
  outputIndex: number;
  pattern: string[];
}

export const normalisePath = (p: string): string => p.replace(/^\/+|\/+$/g, '');

/** The method/path pairs a Webhook node listens on. */
export function webhookRoutes(node: WorkflowNode): Array<{ method: string; path: string; outputIndex: number }> {
  const p = (node.parameters ?? {}) as { path?: unknown; httpMethod?: unknown; multipleMethods?: boolean };
  const path = normalisePath(String(p.path ?? node.webhookId ?? ''));
  if (!path) return [];
  const fallback = nodeRegistry.get(node.type)?.webhookMethod ?? 'GET';
  const methods =
    p.multipleMethods && Array.isArray(p.httpMethod) ? (p.httpMethod as string[]) : [String(p.httpMethod ?? fallback)];
  const out = methods.map((m, i) => ({ method: m.toUpperCase(), path, outputIndex: p.multipleMethods ? i : 0 }));
  // n8n also serves dynamic paths under the node's webhookId.
  if (path.includes(':') && node.webhookId)
    for (const r of [...out]) out.push({ ...r, path: `${node.webhookId}/${path}` });
  return out;
}

export class WebhookTable {
  private readonly exact = new Map<string, WebhookTarget>();
  private readonly dynamic: Array<{ method: string; target: WebhookTarget }> = [];
  private readonly byWorkflow = new Map<string, string[]>();

  /** Returns a conflict description if a route is taken by another workflow. */
  conflicts(prepared: PreparedWorkflow, nodes: WorkflowNode[]): string | undefined {
    for (const node of nodes) {
      for (const r of webhookRoutes(node)) {
        const hit = this.exact.get(`${r.method} ${r.path}`);
        if (hit && hit.workflowId !== prepared.definition.id) return `${r.method} ${r.path}`;
      }
    }
    return undefined;
  }

  add(workflowId: string, nodes: WorkflowNode[]): void {
    this.remove(workflowId);
    const keys: string[] = [];
    for (const node of nodes) {
      for (const r of webhookRoutes(node)) {
        const target: WebhookTarget = { workflowId, node, outputIndex: r.outputIndex, pattern: r.path.split('/') };
        if (r.path.split('/').some((s) => s.startsWith(':'))) this.dynamic.push({ method: r.method, target });
        else {
          const key = `${r.method} ${r.path}`;
          this.exact.set(key, target);
          keys.push(key);
        }
      }
    }
    this.byWorkflow.set(workflowId, keys);
  }

  remove(workflowId: string): void {
    for (const k of this.byWorkflow.get(workflowId) ?? [])
      if (this.exact.get(k)?.workflowId === workflowId) this.exact.delete(k);
    this.byWorkflow.delete(workflowId);
    for (let i = this.dynamic.length - 1; i >= 0; i--)
      if (this.dynamic[i].target.workflowId === workflowId) this.dynamic.splice(i, 1);
  }

  find(method: string, path: string): { target: WebhookTarget; params: Record<string, string> } | undefined {
    const clean = normalisePath(path);
    const hit = this.exact.get(`${method} ${clean}`);
    if (hit) return { target: hit, params: {} };
    return matchDynamic(
      this.dynamic.filter((d) => d.method === method).map((d) => d.target),
      clean,
    );
  }

  /** Whether any method is registered for the path (for 404 vs method wording). */
  methodsFor(path: string): string[] {
    const clean = normalisePath(path);
    const out: string[] = [];
    for (const key of this.exact.keys()) {
      const sp = key.indexOf(' ');
      if (key.slice(sp + 1) === clean) out.push(key.slice(0, sp));
    }
    return out;
  }
}

export function matchDynamic(
  targets: WebhookTarget[],
  path: string,
): { target: WebhookTarget; params: Record<string, string> } | undefined {
  const parts = path.split('/');
  for (const target of targets) {
    if (target.pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length; i++) {
      const seg = target.pattern[i];
      // The path was percent-decoded once already (webhooks/routes.ts); decoding again would
      // turn `%2525` into `%` and throw on a literal `%`.
      if (seg.startsWith(':')) params[seg.slice(1)] = parts[i]!;
      else if (seg !== parts[i]) {
        ok = false;
        break;
      }
    }
    if (ok) return { target, params };
  }
  return undefined;
}
