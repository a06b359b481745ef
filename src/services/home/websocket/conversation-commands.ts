// conversation/process over the WebSocket (HA's frontend Assist dialog uses it).
import { processConversation } from '../conversation/agent.js';
import type { Command } from './commands.js';
import { expectStr } from './messages.js';

export const conversationCommands: Record<string, Command> = {
  async 'conversation/process'(s, msg) {
    const text = expectStr(msg, 'text', true)!;
    const language = expectStr(msg, 'language', false);
    const conversationId = msg.conversation_id === null ? undefined : expectStr(msg, 'conversation_id', false);
    const result = await processConversation(s.home, { text, language, conversation_id: conversationId }, s.context());
    await s.persist.commit();
    s.result(msg.id, result);
  },
};
