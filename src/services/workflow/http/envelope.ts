// Errors are n8n's `{ "message": "…" }` (the status says the rest), on every route of the service.
import type { ErrorEnvelope } from '../../../platform/http.js';

export const envelope: ErrorEnvelope = (e) => ({ message: e.message });
