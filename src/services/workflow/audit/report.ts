// n8n's security audit (POST /audit): risk reports on what this instance holds, in n8n's
// shape — `{"<Category> Risk Report": {risk, sections: [{title, description, recommendation,
// location | settings}]}}`, a report only when it has a finding (n8n answers [] when none do).
import type { WorkflowNode } from '../engine/types.js';

export const RISK_CATEGORIES = ['credentials', 'database', 'nodes', 'filesystem', 'instance'] as const;
export type RiskCategory = (typeof RISK_CATEGORIES)[number];

export interface AuditWorkflow {
  id: string;
  name: string;
  active: boolean;
  nodes: WorkflowNode[];
  /** Source node name → the node names its main outputs feed. */
  children(nodeName: string): string[];
}

export interface AuditInput {
  workflows: AuditWorkflow[];
  credentials: Array<{ id: string; name: string; type: string }>;
  /** Ids of workflows with an execution in the last `daysAbandonedWorkflow` days. */
  recentlyExecuted: Set<string>;
  daysAbandonedWorkflow: number;
  categories: RiskCategory[];
}

interface Section {
  title: string;
  description: string;
  recommendation: string;
  location?: Array<Record<string, unknown>>;
  settings?: Record<string, unknown>;
}

/** Nodes that can run arbitrary code or reach any host (n8n's "official risky nodes"). */
const RISKY_NODE_TYPES = new Set(
  ['code', 'function', 'functionItem', 'executeCommand', 'httpRequest', 'ssh', 'ftp', 'aiTransform'].map(
    (t) => `n8n-nodes-base.${t}`,
  ),
);
const FILESYSTEM_NODE_TYPES = new Set(
  [
    'readBinaryFile',
    'readBinaryFiles',
    'writeBinaryFile',
    'readWriteFile',
    'readPDF',
    'localFileTrigger',
    'executeCommand',
  ].map((t) => `n8n-nodes-base.${t}`),
);
/** Nodes that can check a webhook request themselves, so a webhook feeding one is not counted unprotected. */
const WEBHOOK_VALIDATOR_TYPES = new Set(
  ['if', 'switch', 'code', 'function', 'functionItem', 'filter'].map((t) => `n8n-nodes-base.${t}`),
);
const SQL_NODE_TYPES = new Set(
  ['postgres', 'mySql', 'microsoftSql', 'crateDb', 'questDb', 'snowflake', 'timescaleDb'].map(
    (t) => `n8n-nodes-base.${t}`,
  ),
);
const OWN_PACKAGES = ['n8n-nodes-base.', '@n8n/n8n-nodes-langchain.'];

const nodeLocation = (wf: AuditWorkflow, n: WorkflowNode) => ({
  kind: 'node',
  workflowId: wf.id,
  workflowName: wf.name,
  nodeId: n.id ?? null,
  nodeName: n.name,
  nodeType: n.type,
});

function credentialIdsUsed(workflows: AuditWorkflow[], byNameAndType: Map<string, string>): Set<string> {
  const used = new Set<string>();
  for (const wf of workflows) {
    for (const n of wf.nodes) {
      for (const [type, ref] of Object.entries(
        (n.credentials ?? {}) as Record<string, { id?: unknown; name?: unknown }>,
      )) {
        if (typeof ref?.id === 'string') used.add(ref.id);
        else if (typeof ref?.name === 'string') {
          const id = byNameAndType.get(`${type}\u0000${ref.name}`);
          if (id) used.add(id);
        }
      }
    }
  }
  return used;
}

function credentialsReport(input: AuditInput): Section[] {
  const byNameAndType = new Map(input.credentials.map((c) => [`${c.type}\u0000${c.name}`, c.id]));
  const location = (ids: Set<string>) =>
    input.credentials.filter((c) => !ids.has(c.id)).map((c) => ({ kind: 'credential', id: c.id, name: c.name }));
  const sections: Section[] = [];
  const push = (title: string, description: string, recommendation: string, ids: Set<string>) => {
    const loc = location(ids);
    if (loc.length) sections.push({ title, description, recommendation, location: loc });
  };
  push(
    'Credentials not used in any workflow',
    'No workflow references these credentials; unused secrets kept in the instance are exposure with no benefit.',
    'Delete them if nothing needs them any more.',
    credentialIdsUsed(input.workflows, byNameAndType),
  );
  push(
    'Credentials not used in any active workflow',
    'Only inactive workflows reference these credentials.',
    'Delete them, or the workflows, if they are no longer needed.',
    credentialIdsUsed(
      input.workflows.filter((w) => w.active),
      byNameAndType,
    ),
  );
  push(
    'Credentials not used in recently executed workflows',
    `No workflow that ran in the last ${input.daysAbandonedWorkflow} days references these credentials.`,
    'Delete them if the workflows that use them are abandoned.',
    credentialIdsUsed(
      input.workflows.filter((w) => input.recentlyExecuted.has(w.id)),
      byNameAndType,
    ),
  );
  return sections;
}

function databaseReport(input: AuditInput): Section[] {
  const withExpressions = input.workflows.flatMap((wf) =>
    wf.nodes
      .filter(
        (n) =>
          SQL_NODE_TYPES.has(n.type) &&
          typeof n.parameters?.query === 'string' &&
          String(n.parameters.query).startsWith('='),
      )
      .map((n) => nodeLocation(wf, n)),
  );
  return withExpressions.length
    ? [
        {
          title: 'Expressions in "Execute Query" fields in SQL nodes',
          description: 'These SQL nodes build their query from an expression, which can let input data inject SQL.',
          recommendation: 'Pass values as query parameters instead of writing them into the query text.',
          location: withExpressions,
        },
      ]
    : [];
}

function nodesReport(input: AuditInput): Section[] {
  const risky = input.workflows.flatMap((wf) =>
    wf.nodes.filter((n) => RISKY_NODE_TYPES.has(n.type)).map((n) => nodeLocation(wf, n)),
  );
  const community = input.workflows.flatMap((wf) =>
    wf.nodes.filter((n) => !OWN_PACKAGES.some((p) => n.type.startsWith(p))).map((n) => nodeLocation(wf, n)),
  );
  const sections: Section[] = [];
  if (risky.length)
    sections.push({
      title: 'Official risky nodes',
      description:
        'These built-in nodes run code or send requests to any address, so a workflow that feeds them untrusted input can be used against the instance or its network.',
      recommendation: 'Check what reaches these nodes; use HAMLET_ALLOW_INTERNAL_REQUESTS only where needed.',
      location: risky,
    });
  if (community.length)
    sections.push({
      title: 'Community nodes',
      description: "These nodes come from packages outside n8n's own; this instance cannot run them.",
      recommendation: 'Replace them with built-in nodes, or remove them.',
      location: community,
    });
  return sections;
}

function filesystemReport(input: AuditInput): Section[] {
  const loc = input.workflows.flatMap((wf) =>
    wf.nodes.filter((n) => FILESYSTEM_NODE_TYPES.has(n.type)).map((n) => nodeLocation(wf, n)),
  );
  return loc.length
    ? [
        {
          title: 'Nodes that interact with the filesystem',
          description: 'These nodes read or write files on the host.',
          recommendation: 'Make sure they only touch files meant for them.',
          location: loc,
        },
      ]
    : [];
}

function instanceReport(input: AuditInput): Section[] {
  const unprotected = input.workflows.flatMap((wf) =>
    wf.nodes
      .filter((n) => n.type === 'n8n-nodes-base.webhook' && !n.disabled)
      .filter((n) => {
        const auth = n.parameters?.authentication;
        if (auth && auth !== 'none') return false;
        const childTypes = wf.children(n.name).map((c) => wf.nodes.find((x) => x.name === c)?.type ?? '');
        return !childTypes.some((t) => WEBHOOK_VALIDATOR_TYPES.has(t));
      })
      .map((n) => nodeLocation(wf, n)),
  );
  const sections: Section[] = [];
  if (unprotected.length)
    sections.push({
      title: 'Unprotected webhooks in instance',
      description:
        'These webhooks take requests from anyone: they have no authentication and no node right after them checks the request.',
      recommendation: "Set the webhook's authentication (Basic, Header or JWT), or check the request in the next node.",
      location: unprotected,
    });
  sections.push({
    title: 'Security settings',
    description: "The instance's settings that bear on security.",
    recommendation: 'Keep the public API key secret and internal requests blocked unless a workflow needs them.',
    settings: {
      features: {
        communityPackagesEnabled: false,
        versionNotificationsEnabled: false,
        templatesEnabled: false,
        publicApiEnabled: true,
      },
      nodes: { nodesExclude: null, nodesInclude: null },
      telemetry: { diagnosticsEnabled: false },
    },
  });
  return sections;
}

const REPORTERS: Record<RiskCategory, { title: string; sections(input: AuditInput): Section[] }> = {
  credentials: { title: 'Credentials Risk Report', sections: credentialsReport },
  database: { title: 'Database Risk Report', sections: databaseReport },
  nodes: { title: 'Nodes Risk Report', sections: nodesReport },
  filesystem: { title: 'Filesystem Risk Report', sections: filesystemReport },
  instance: { title: 'Instance Risk Report', sections: instanceReport },
};

/** The audit, as n8n answers it: an object of reports, or [] when nothing was found. */
export function auditReport(input: AuditInput): Record<string, { risk: RiskCategory; sections: Section[] }> | [] {
  const out: Record<string, { risk: RiskCategory; sections: Section[] }> = {};
  for (const category of input.categories) {
    const sections = REPORTERS[category].sections(input);
    if (sections.length) out[REPORTERS[category].title] = { risk: category, sections };
  }
  return Object.keys(out).length ? out : [];
}
