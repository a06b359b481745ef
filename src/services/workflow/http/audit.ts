// POST /api/v1/audit: n8n's security audit over this instance's workflows and credentials
// (audit/report.ts), with n8n's `additionalOptions` (categories, daysAbandonedWorkflow).
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Clock } from '../../../platform/clock.js';
import { badRequest } from '../../../platform/errors.js';
import { auditReport, RISK_CATEGORIES, type AuditWorkflow, type RiskCategory } from '../audit/report.js';
import type { ApiStore } from '../store/api-store.js';
import type { WorkflowStore } from '../store/index.js';
import type { WorkflowCache } from '../workflows/model.js';
import { requireObjectBody } from './common.js';
import { errors } from './schemas.js';

const AuditBody = Type.Object(
  {
    additionalOptions: Type.Optional(
      Type.Object(
        {
          daysAbandonedWorkflow: Type.Optional(
            Type.Integer({
              minimum: 1,
              description: 'days without an execution after which a workflow counts as abandoned (default 90)',
            }),
          ),
          categories: Type.Optional(Type.Array(Type.Union(RISK_CATEGORIES.map((c) => Type.Literal(c))))),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const PAGE = 500;

function readOptions(raw: unknown): { days: number; categories: RiskCategory[] } {
  const body = raw === undefined || raw === null || raw === '' ? {} : requireObjectBody(raw);
  for (const k of Object.keys(body))
    if (k !== 'additionalOptions') throw badRequest('request/body must NOT have additional properties');
  const opts = body.additionalOptions === undefined ? {} : requireObjectBody(body.additionalOptions);
  for (const k of Object.keys(opts))
    if (k !== 'daysAbandonedWorkflow' && k !== 'categories')
      throw badRequest('request/body/additionalOptions must NOT have additional properties');
  const days = opts.daysAbandonedWorkflow ?? 90;
  if (!Number.isInteger(days) || (days as number) < 1)
    throw badRequest('request/body/additionalOptions/daysAbandonedWorkflow must be integer >= 1');
  let categories: RiskCategory[] = [...RISK_CATEGORIES];
  if (opts.categories !== undefined) {
    if (!Array.isArray(opts.categories)) throw badRequest('request/body/additionalOptions/categories must be array');
    opts.categories.forEach((c, i) => {
      if (!(RISK_CATEGORIES as readonly unknown[]).includes(c))
        throw badRequest(
          `request/body/additionalOptions/categories/${i} must be equal to one of the allowed values: ${RISK_CATEGORIES.join(', ')}`,
        );
    });
    categories = opts.categories as RiskCategory[];
  }
  return { days: days as number, categories };
}

export function auditRoutes(
  app: App,
  d: { store: WorkflowStore; apiStore: ApiStore; cache: WorkflowCache; clock: Clock },
): void {
  app.post(
    '/audit',
    {
      schema: {
        summary: 'Generate a security audit',
        tags: ['audit'],
        body: AuditBody,
        response: {
          200: Type.Unknown({
            description: "{'<Category> Risk Report': {risk, sections}}, or [] when nothing was found",
          }),
          ...errors(400),
        },
      },
    },
    async (req) => {
      const { days, categories } = readOptions(req.body);
      const workflows: AuditWorkflow[] = [];
      for (let offset = 0; ; offset += PAGE) {
        const rows = await d.store.listWorkflows({ limit: PAGE, offset });
        for (const row of rows) {
          const { definition, graph } = d.cache.get(row);
          workflows.push({
            id: row.id,
            name: row.name,
            active: row.active === 1,
            nodes: definition.nodes,
            children: (name) => (graph.children.get(name) ?? []).flat().map((c) => c.node),
          });
        }
        if (rows.length < PAGE) break;
      }
      const credentials: Array<{ id: string; name: string; type: string }> = [];
      for (let offset = 0; ; offset += PAGE) {
        const rows = await d.apiStore.listCredentials(PAGE, offset);
        credentials.push(...rows);
        if (rows.length < PAGE) break;
      }
      const since = new Date(d.clock.ms() - days * 86_400_000).toISOString();
      const recentlyExecuted = await d.store.workflowIdsExecutedSince(since);
      return auditReport({ workflows, credentials, recentlyExecuted, daysAbandonedWorkflow: days, categories });
    },
  );
}
