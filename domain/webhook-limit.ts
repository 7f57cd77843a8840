// How many live webhooks an organization may have in one environment (Stripe's limit, 16 endpoints
// per mode, which its users know). Every event is delivered once per matching webhook, and each
// exhausted delivery is announced (webhook.delivery_exhausted) to every other webhook that listens:
// with N failing endpoints one event becomes up to N + N·(N−1) deliveries, exactly when receivers
// are down. The limit keeps that bounded (at most 256 per event); a deleted webhook frees its place.
export const MAX_WEBHOOKS_PER_ENVIRONMENT = 16;
