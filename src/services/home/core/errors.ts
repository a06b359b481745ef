// A failure of a home operation, with HA's WebSocket error code. It is a DomainError, so REST
// answers it with the status of its kind (not_found 404, the rest 400: never a 500 for
// something the caller can fix); the WebSocket sends the code as is.
import { DomainError } from '../../../platform/errors.js';

export type HomeErrorCode = 'not_found' | 'invalid_format' | 'service_validation_error';

export class HomeError extends DomainError {
  declare readonly code: HomeErrorCode;

  constructor(code: HomeErrorCode, message: string) {
    super(code === 'not_found' ? 'not_found' : 'invalid', message, code);
  }
}

export const invalid = (field: string, reason: string) => new HomeError('invalid_format', `${field}: ${reason}`);
export const validation = (message: string) => new HomeError('service_validation_error', message);
export const notFound = (message: string) => new HomeError('not_found', message);
