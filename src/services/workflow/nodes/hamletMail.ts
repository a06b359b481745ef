// Hamlet Mail: send a message from an inbox, or reply to one (the mail service's AgentMail API).
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { callService, perItem } from './hamlet-api.js';

const list = (v: unknown) =>
  Array.isArray(v)
    ? v.map(String)
    : String(v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

export default {
  types: ['hamlet.mail'],
  execute: (ctx) =>
    perItem(ctx, async (i) => {
      const inbox = encodeURIComponent(String(await ctx.param('inboxId', i, '')));
      if (!inbox) throw new NodeOperationError('Inbox ID is required');
      const content = {
        text: await ctx.param<string | undefined>('text', i, undefined),
        html: await ctx.param<string | undefined>('html', i, undefined),
      };
      if (ctx.raw('operation', 'send') === 'reply') {
        const messageId = encodeURIComponent(String(await ctx.param('messageId', i, '')));
        if (!messageId) throw new NodeOperationError('Message ID is required to reply');
        return callService(ctx, {
          service: 'mail',
          method: 'POST',
          path: `/v0/inboxes/${inbox}/messages/${messageId}/reply`,
          body: content,
          itemIndex: i,
        });
      }
      const to = list(await ctx.param('to', i, ''));
      if (!to.length) throw new NodeOperationError('To is required');
      return callService(ctx, {
        service: 'mail',
        method: 'POST',
        path: `/v0/inboxes/${inbox}/messages/send`,
        body: { to, subject: await ctx.param('subject', i, ''), ...content },
        itemIndex: i,
      });
    }),
} satisfies NodeType;
