import type { ProviderRoute } from '../../domain/providers';
import { PROVIDER_ERROR_CODES } from './http-failure';
import { ProviderError } from './types';

/**
 * A provider's 401/403 on a route that runs on the platform's key is the platform's problem, not
 * the provider's verdict on the request: the generation moves on to its next route (`fallsBack`),
 * and, when none is left, fails as ours (`error_source: "gateway"`, retryable) with a message that
 * tells the caller to try later rather than to check a key it does not own. On the organization's
 * own key (BYOK) the refusal stands: only the customer can fix that key. Undefined when `err` is not
 * such a refusal.
 */
export function refusedPlatformKey(err: unknown, route: ProviderRoute | undefined): ProviderError | undefined {
  if (!(err instanceof ProviderError) || err.code !== PROVIDER_ERROR_CODES.auth || err.opts.source === 'gateway') return undefined;
  if (route?.key !== 'platform') return undefined;
  return new ProviderError(
    PROVIDER_ERROR_CODES.auth,
    `${route.provider} refused this service's credentials; the generation was refunded. The operator has been alerted; try again later.`,
    false,
    { source: 'gateway', fallsBack: true, internalDetail: err.message },
  );
}
