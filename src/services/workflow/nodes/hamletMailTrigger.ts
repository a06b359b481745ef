// Hamlet Mail Trigger: starts a run for each new mail. Register its URL
// (`/webhook/<path>`) as a webhook of the mail service for `message.received`; each
// delivery's message becomes the item (subject, from, text, inbox_id, message_id, …).
import type { NodeType } from '../engine/node-type.js';

export default {
  types: ['hamlet.mailTrigger'],
  trigger: 'webhook',
  webhookMethod: 'POST',
  fromWebhook(item, node) {
    const body = item.json.body as
      { event_type?: string; event_id?: string; message?: Record<string, unknown> } | undefined;
    const wanted = String((node.parameters as { event?: string } | undefined)?.event ?? 'message.received');
    if (!body?.message || body.event_type !== wanted) return [];
    return [{ json: { ...body.message, event_type: body.event_type, event_id: body.event_id } }];
  },
  execute: (ctx) => [ctx.items],
} satisfies NodeType;
