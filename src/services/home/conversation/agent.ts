// HA's default conversation agent: a sentence in English → intent → the home acts → HA's
// conversation result {response, conversation_id, continue_conversation}.
import { ulid } from 'ulid';
import type { Context } from '../core/context.js';
import type { Home } from '../core/home.js';
import { handleIntent } from './intents.js';
import { errorAnswer, type IntentResponse } from './response.js';
import { matchSentence } from './sentences.js';

export interface ConversationInput {
  text: string;
  language?: string | null;
  conversation_id?: string | null;
}

export interface ConversationResult {
  response: IntentResponse;
  conversation_id: string;
  continue_conversation: boolean;
}

export async function processConversation(
  home: Home,
  input: ConversationInput,
  context: Context,
): Promise<ConversationResult> {
  const conversation_id = input.conversation_id || ulid();
  const language = (input.language ?? home.location.language ?? 'en').toLowerCase();
  let response: IntentResponse;
  if (!language.startsWith('en'))
    response = { ...errorAnswer('no_intent_match', `Sorry, I only understand English, not ${language}`), language };
  else {
    const matched = matchSentence(home, input.text);
    response = matched
      ? await handleIntent(home, matched.intent, matched.slots, context)
      : errorAnswer('no_intent_match', "Sorry, I couldn't understand that");
  }
  return { response, conversation_id, continue_conversation: false };
}
