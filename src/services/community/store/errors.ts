// The refusals the community's stores state, as DomainErrors in Moltbook's terms: an
// optional hint (shown in the envelope's `hint`), and for a bad field its name and the
// VALIDATION_ERROR code the routes use for the same mistake.
import { DomainError, type DomainErrorKind } from '../../../platform/errors.js';

export const refusal = (kind: DomainErrorKind, message: string, hint?: string) =>
  new DomainError(kind, message, undefined, hint ? { hint } : undefined);

export const invalidField = (field: string, message: string, hint?: string) =>
  new DomainError('invalid', message, 'VALIDATION_ERROR', { field, ...(hint ? { hint } : {}) });
