import { trace } from '@opentelemetry/api';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Context } from '@temporalio/activity';
import type { ActivityInterceptors } from '@temporalio/worker';
import { SPAN_ATTRIBUTES_HEADER } from './span-attributes';

// The activity half of observability/workflow-interceptors.ts: a traced worker runs this inside
// Temporal's OpenTelemetry activity interceptor, so the active span is the activity's, and names it
// with the attributes its workflow sent in a header (the generation id, organization, model, ...).

export function spanAttributesFromHeader(_ctx: Context): ActivityInterceptors {
  return {
    inbound: {
      execute(input, next) {
        const payload = input.headers[SPAN_ATTRIBUTES_HEADER];
        if (payload) trace.getActiveSpan()?.setAttributes(defaultPayloadConverter.fromPayload<Record<string, string>>(payload));
        return next(input);
      },
    },
  };
}
