// HA's intent response (helpers/intent.py IntentResponse.as_dict): what the conversation API,
// /api/intent/handle and the MCP tools answer with.
export type ResponseType = 'action_done' | 'query_answer' | 'error';

export interface IntentTarget {
  type: 'area' | 'floor' | 'domain' | 'device_class' | 'entity' | 'custom';
  name: string;
  id: string | null;
}

export interface IntentResponse {
  speech: { plain: { speech: string; extra_data: null } };
  card: Record<string, never>;
  language: string;
  response_type: ResponseType;
  data: { targets: IntentTarget[]; success: IntentTarget[]; failed: IntentTarget[] } | { code: string };
}

/** HA's error codes (intent.IntentResponseErrorCode). */
export type ErrorCode = 'no_intent_match' | 'no_valid_targets' | 'failed_to_handle' | 'unknown';

const speech = (text: string) => ({ plain: { speech: text, extra_data: null } as const });

export function answer(
  type: 'action_done' | 'query_answer',
  text: string,
  success: IntentTarget[],
  targets: IntentTarget[] = [],
  failed: IntentTarget[] = [],
): IntentResponse {
  return { speech: speech(text), card: {}, language: 'en', response_type: type, data: { targets, success, failed } };
}

export function errorAnswer(code: ErrorCode, text: string): IntentResponse {
  return { speech: speech(text), card: {}, language: 'en', response_type: 'error', data: { code } };
}

/** Thrown by an intent handler; becomes an error response. */
export class IntentError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}
