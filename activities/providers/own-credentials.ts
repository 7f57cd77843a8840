import type { Repos } from '../../db/repos';
import type { RealProvider } from '../../domain/providers';
import { providerCredentialBinding } from '../../lib/secret-bindings';
import type { SecretBox } from '../../lib/secret-box';
import type { ProviderCredentials } from './types';

/**
 * An organization's own key for a provider (BYOK), opened for one call. It is used at the base URL
 * this deployment calls that provider at: organizations bring keys, never addresses, so a stored
 * credential cannot point the workers at a host of its choosing.
 */
export function ownCredentialsFrom(
  repos: Pick<Repos, 'providerCredentials'>,
  box: SecretBox,
  baseUrls: Partial<Record<RealProvider, string>>,
): (organizationId: string, provider: RealProvider) => Promise<ProviderCredentials | undefined> {
  return async (organizationId, provider) => {
    const baseUrl = baseUrls[provider];
    if (!baseUrl) return undefined;
    const sealed = await repos.providerCredentials.findSealed(organizationId, provider);
    return sealed === undefined ? undefined : { apiKey: box.open(sealed, providerCredentialBinding(organizationId, provider)), baseUrl };
  };
}
