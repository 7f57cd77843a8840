// What each sealed secret is bound to (AES-GCM associated data, lib/secret-box.ts): the table, the
// row and the column it is stored in, so a sealed value copied into another row is refused. Sealing
// (the API), opening (the worker) and the re-seal (worker/reseal-secrets.ts) all name it here.

/**
 * A webhook subscription's signing secret. Its previous secret (kept 24 h after a rotation) is the
 * same secret moved aside in the same row, so it carries the same binding.
 */
export function webhookSecretBinding(subscriptionId: string): string {
  return `webhook_subscriptions:${subscriptionId}:secret`;
}

/** The provider key an organization brought (BYOK). */
export function providerCredentialBinding(organizationId: string, provider: string): string {
  return `provider_credentials:${organizationId}:${provider}`;
}
