import { REAL_PROVIDERS, isRealProvider, type RealProvider } from '../../domain/providers';
import { ApiError } from '../errors';
import { compileValidator } from './ajv';
import { withProperty } from './documented-schema';

// /v1/provider-credentials (BYOK, decisions §7). Whether the organization may store a key
// (Enterprise) and whether this server can use it (a base URL, PROVIDER_SECRETS_KEY) are the
// route's rules: they depend on who calls and how the server is configured.

export interface PutProviderCredentialRequest {
  /** The provider's own API key; stored sealed and never returned. */
  api_key: string;
}

const validatePutProviderCredential = compileValidator<PutProviderCredentialRequest>({
  type: 'object',
  additionalProperties: false,
  required: ['api_key'],
  properties: { api_key: { type: 'string', minLength: 1, maxLength: 500 } },
});

/** The body's schema as the OpenAPI document prints it (whitespace is refused with its own message, below). */
export const PUT_PROVIDER_CREDENTIAL_SCHEMA = withProperty(validatePutProviderCredential.schema, 'api_key', { pattern: '^\\S+$' });

/**
 * The body of a PUT. No provider key contains whitespace, so a space or line break is a paste
 * accident, which ajv's "must match pattern" would not explain: this says what to fix.
 */
export function parsePutProviderCredential(data: unknown): PutProviderCredentialRequest {
  const body = validatePutProviderCredential(data);
  if (/\s/.test(body.api_key)) {
    const message = 'Invalid api_key: it contains whitespace; send the key alone, without spaces or line breaks.';
    throw new ApiError('validation_failed', message, { param: 'api_key', details: [{ param: 'api_key', message }] });
  }
  return body;
}

/** The `:provider` of the path: one of the real providers (the simulator needs no key). */
export function parseProviderParam(value: string | undefined): RealProvider {
  if (value !== undefined && isRealProvider(value)) return value;
  throw new ApiError('validation_failed', `Unknown provider '${value ?? ''}': must be one of ${REAL_PROVIDERS.join(', ')}.`, {
    param: 'provider',
  });
}
