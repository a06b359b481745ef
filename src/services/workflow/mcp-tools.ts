// The workflow service's tools and resources on the Hamlet MCP server (src/console/mcp): the common
// actions of the service, each one route of its public API. Descriptions are written for an
// agent; input schemas are derived from the route's own request schema.
import type { McpTools } from '../../platform/mcp-tools.js';

export const workflowTools: McpTools = {
  tools: [
    { name: 'workflow_list', method: 'GET', path: '/api/v1/workflows', description: 'Your workflows.' },
    {
      name: 'workflow_create',
      method: 'POST',
      path: '/api/v1/workflows',
      description: 'Create a workflow from n8n workflow JSON (name, nodes, connections, settings).',
    },
    {
      name: 'workflow_get',
      method: 'GET',
      path: '/api/v1/workflows/{id}',
      description: 'One workflow with its nodes and connections.',
    },
    {
      name: 'workflow_activate',
      method: 'POST',
      path: '/api/v1/workflows/{id}/activate',
      description: 'Activate a workflow (its webhooks, schedules and triggers start).',
    },
    {
      name: 'workflow_deactivate',
      method: 'POST',
      path: '/api/v1/workflows/{id}/deactivate',
      description: 'Deactivate a workflow.',
    },
    {
      name: 'workflow_run',
      method: 'POST',
      path: '/api/v1/workflows/{id}/execute',
      description: 'Run a workflow now and return the execution.',
    },
    {
      name: 'workflow_list_executions',
      method: 'GET',
      path: '/api/v1/executions',
      description: 'Executions, newest first (filter by workflowId, status).',
    },
    {
      name: 'workflow_get_execution',
      method: 'GET',
      path: '/api/v1/executions/{id}',
      description: 'One execution, with its data when includeData is true.',
    },
  ],
  resources: [
    {
      uri: 'hamlet://workflow/workflows',
      path: '/api/v1/workflows',
      name: 'workflows',
      description: 'Your workflows.',
    },
  ],
};
