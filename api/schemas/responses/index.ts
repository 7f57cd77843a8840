// Every response component of the OpenAPI document (components.schemas, by name), one file per
// resource beside this one, and which component each webhook event's body is. The error object is
// not here: the document builds it per route from api/errors.ts.

import { ACCESS_SCHEMAS } from './access';
import { ADMIN_SCHEMAS } from './admin';
import { BILLING_SCHEMAS } from './billing';
import { COMPARISON_SCHEMAS } from './comparisons';
import { EVENT_SCHEMAS } from './events';
import { GENERATION_SCHEMAS } from './generations';
import { HEALTH_SCHEMAS } from './health';
import { MODEL_SCHEMAS } from './models';
import { PROVIDER_CREDENTIAL_SCHEMAS } from './provider-credentials';
import { QUOTE_SCHEMAS } from './quotes';
import { UPLOAD_SCHEMAS } from './uploads';
import { WEBHOOK_EVENT_SCHEMAS } from './webhook-events';
import { WEBHOOK_SCHEMAS } from './webhooks';
import { WEBHOOK_RECOVERY_SCHEMAS } from './webhook-recoveries';

export { WEBHOOK_EVENT_COMPONENTS } from './webhook-events';

/** Component name → JSON Schema 2020-12 object; `$ref`s between them read `#/components/schemas/<Name>`. */
export const RESPONSE_SCHEMAS: Record<string, object> = {
  ...GENERATION_SCHEMAS,
  ...COMPARISON_SCHEMAS,
  ...MODEL_SCHEMAS,
  ...BILLING_SCHEMAS,
  ...QUOTE_SCHEMAS,
  ...ACCESS_SCHEMAS,
  ...WEBHOOK_SCHEMAS,
  ...WEBHOOK_RECOVERY_SCHEMAS,
  ...UPLOAD_SCHEMAS,
  ...PROVIDER_CREDENTIAL_SCHEMAS,
  ...ADMIN_SCHEMAS,
  ...HEALTH_SCHEMAS,
  ...WEBHOOK_EVENT_SCHEMAS,
  ...EVENT_SCHEMAS,
};
