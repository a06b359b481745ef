// The home service's tools and resources on the Hamlet MCP server (src/console/mcp): the common
// actions of the service, each one route of its public API. Descriptions are written for an
// agent; input schemas are derived from the route's own request schema.
import type { McpTools } from '../../platform/mcp-tools.js';

export const homeTools: McpTools = {
  tools: [
    {
      name: 'home_get_states',
      method: 'GET',
      path: '/api/states',
      description: 'The state of every entity in the house.',
    },
    {
      name: 'home_state',
      method: 'GET',
      path: '/api/states/{entity_id}',
      description: 'One entity: its state and attributes.',
    },
    {
      name: 'home_call_service',
      method: 'POST',
      path: '/api/services/{domain}/{service}',
      description: 'Call a service, e.g. domain light, service turn_on, with entity_id and brightness.',
    },
    {
      name: 'home_history',
      method: 'GET',
      path: '/api/history/period/{timestamp}',
      description: 'State history from a time (ISO 8601), e.g. for filter_entity_id.',
    },
  ],
  resources: [
    {
      uri: 'hamlet://home/states',
      path: '/api/states',
      name: 'house',
      description: 'Every entity of the house with its state.',
    },
  ],
};
