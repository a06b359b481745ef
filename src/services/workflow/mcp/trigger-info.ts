// get_workflow_details' `triggerInfo`: how a client starts a workflow, in n8n 2.8.4's words and
// layout (webhooks with their production and test paths, method, response mode and the
// credential they want; chat, schedule and form triggers with what to send).
import type { WorkflowNode } from '../engine/types.js';

/** The triggers n8n's MCP server can start, with the names its messages use (in its order). */
export const SUPPORTED_TRIGGERS: Record<string, string> = {
  'n8n-nodes-base.scheduleTrigger': 'Schedule Trigger',
  'n8n-nodes-base.webhook': 'Webhook Trigger',
  'n8n-nodes-base.formTrigger': 'Form Trigger',
  '@n8n/n8n-nodes-langchain.chatTrigger': 'Chat Trigger',
};

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** n8n's path of a webhook under an endpoint segment ('webhook', 'webhook-test'). */
const webhookPath = (segment: string, path: string) => `/${segment}/${path}`;

function responseMode(node: WorkflowNode): string {
  const mode = str(node.parameters?.responseMode);
  if (mode === 'responseNode') return 'Webhook is configured to respond using "Respond to Webhook" node.';
  if (mode === 'lastNode') {
    const base = 'Webhook is configured to respond when the last node is executed. ';
    switch (str(node.parameters?.responseData)) {
      case 'allEntries':
        return base + 'Returns all the entries of the last node. Always returns an array.';
      case 'firstEntryBinary':
        return base + 'Returns the binary data of the first entry of the last node. Always returns a binary file.';
      case 'noData':
        return base + 'Returns without a body.';
      default:
        return base + 'Returns the JSON data of the first entry of the last node. Always returns a JSON object.';
    }
  }
  return 'Webhook is configured to respond immediately with the message "Workflow got started."';
}

async function credentialLine(
  node: WorkflowNode,
  headerName: (node: WorkflowNode) => Promise<string | undefined>,
): Promise<string> {
  const auth = str(node.parameters?.authentication);
  if (auth === 'basicAuth')
    return '\t - Credentials: \n\t - This webhook requires basic authentication with a username and password that should be provided by the user.';
  if (auth === 'headerAuth') {
    const name = await headerName(node).catch(() => undefined);
    if (name)
      return `\t - Credentials: \n\t - This webhook requires a header with name "${name}" and a value that should be provided by the user.`;
  }
  if (auth === 'jwtAuth' && node.credentials?.jwtAuth)
    return '\t - Credentials: \n\t - This webhook requires a JWT secret that should be provided by the user.';
  return '\t - No credentials required for this webhook.';
}

function section(header: string, nodes: WorkflowNode[], lines: (n: WorkflowNode) => string[], footer = ''): string {
  const body = nodes
    .map(
      (n, i) =>
        `\n\t\t\t\t<trigger ${i + 1}>\n${lines(n)
          .map((l) => `\t\t\t\t${l}`)
          .join('\n')}\n\t\t\t\t</trigger ${i + 1}>`,
    )
    .join('\n\n');
  return header + body + footer;
}

/** The text n8n's get_workflow_details answers in `triggerInfo`. */
export async function triggerDetails(
  triggers: WorkflowNode[],
  baseUrl: string,
  headerName: (node: WorkflowNode) => Promise<string | undefined>,
): Promise<string> {
  if (!triggers.length) return 'This workflow does not have a trigger node that can be executed via MCP.';
  const of = (type: string) => triggers.filter((t) => t.type === type);
  const parts = ['This workflow has the following trigger(s):\n'];
  const webhooks = of('n8n-nodes-base.webhook');
  if (webhooks.length) {
    const creds = await Promise.all(webhooks.map((n) => credentialLine(n, headerName)));
    parts.push(
      section('Webhook trigger(s):\n\n', webhooks, (n) => {
        const path = str(n.parameters?.path) ?? '';
        return [
          `\t - Node name: ${n.name}`,
          `\t - Base URL: ${baseUrl}`,
          `\t - Production path: ${webhookPath('webhook', path)}`,
          `\t - Test path: ${webhookPath('webhook-test', path)}`,
          `\t - HTTP Method: ${str(n.parameters?.httpMethod) ?? 'GET'}`,
          `\t - Response Mode: ${responseMode(n)}`,
          creds[webhooks.indexOf(n)],
        ];
      }),
    );
  }
  const chats = of('@n8n/n8n-nodes-langchain.chatTrigger');
  if (chats.length)
    parts.push(
      section(
        'Chat trigger(s):\n\n',
        chats,
        (n) => [`\t - Node name: ${n.name}`],
        '\n\nUse the following input format when directly executing this workflow using any of the chat triggers: { inputs { chatInput: <CHAT_MESSAGE_HERE> } }',
      ),
    );
  const schedules = of('n8n-nodes-base.scheduleTrigger');
  if (schedules.length)
    parts.push(
      section(
        'Schedule trigger(s):\n\n',
        schedules,
        (n) => [`\t - Node name: ${n.name}`],
        '\n\nScheduled workflows can be executed directly through MCP clients and do not require external inputs.',
      ),
    );
  const forms = of('n8n-nodes-base.formTrigger');
  if (forms.length)
    parts.push(
      section(
        'Form trigger(s):\n\n',
        forms,
        (n) => [`\t - Node name: ${n.name}`, `\t - Form fields: ${JSON.stringify(n.parameters?.formFields ?? 'N/A')}`],
        '\n\nUse the following input format when directly executing this workflow using any of the form triggers: { inputs { formData: Array<{ FIELD_NAME: VALUE }> } }',
      ),
    );
  return parts.join('\n\n');
}
