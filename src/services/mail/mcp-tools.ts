// The mail service's tools and resources on the Hamlet MCP server (src/console/mcp): the common
// actions of the service, each one route of its public API. Descriptions are written for an
// agent; input schemas are derived from the route's own request schema.
import type { McpTools } from '../../platform/mcp-tools.js';

export const mailTools: McpTools = {
  tools: [
    { name: 'mail_list_inboxes', method: 'GET', path: '/v0/inboxes', description: 'Your inboxes.' },
    {
      name: 'mail_create_inbox',
      method: 'POST',
      path: '/v0/inboxes',
      description: 'Create an inbox (an e-mail address).',
    },
    {
      name: 'mail_send',
      method: 'POST',
      path: '/v0/inboxes/{inbox_id}/messages/send',
      description: 'Send an e-mail from one of your inboxes.',
    },
    {
      name: 'mail_list_messages',
      method: 'GET',
      path: '/v0/inboxes/{inbox_id}/messages',
      description: 'Messages in an inbox, newest first (filter by labels).',
    },
    {
      name: 'mail_read_message',
      method: 'GET',
      path: '/v0/inboxes/{inbox_id}/messages/{message_id}',
      description: 'One message with its text, HTML and attachments list.',
    },
    {
      name: 'mail_reply',
      method: 'POST',
      path: '/v0/inboxes/{inbox_id}/messages/{message_id}/reply',
      description: 'Reply to a message (threaded with it).',
    },
    {
      name: 'mail_list_threads',
      method: 'GET',
      path: '/v0/inboxes/{inbox_id}/threads',
      description: 'Conversations in an inbox.',
    },
  ],
  resources: [
    { uri: 'hamlet://mail/inboxes', path: '/v0/inboxes', name: 'inboxes', description: 'Your inboxes.' },
    {
      uri: 'hamlet://mail/inboxes/{inbox_id}',
      path: '/v0/inboxes/{inbox_id}/messages',
      name: 'inbox',
      description: 'The messages of an inbox.',
      template: true,
    },
  ],
};
