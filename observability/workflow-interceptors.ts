import { trace } from '@opentelemetry/api';
import { OpenTelemetryInboundInterceptor, OpenTelemetryInternalsInterceptor, OpenTelemetryOutboundInterceptor } from '@temporalio/interceptors-opentelemetry/lib/workflow';
import {
  defaultPayloadConverter,
  type ActivityInput,
  type LocalActivityInput,
  type Next,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import { SPAN_ATTRIBUTES_HEADER, spanAttributesOfInput } from './span-attributes';

// The workflow interceptors of a traced worker, bundled into the workflow code only when tracing is
// on (worker/bundle-workflows.ts): Temporal's OpenTelemetry interceptors (a span per workflow run,
// per scheduled activity, W3C context carried in headers from the client that started the run), and
// ours, which put the generation's ids, model and modality on the workflow's span and pass them to
// every activity in a header. Ours never await before calling on, so they add no yield point:
// histories recorded without them replay with them and the other way round (headers are not part of
// a replay's determinism check; test/observability/tracing.test.ts replays every recorded history).

class SpanAttributesInbound implements WorkflowInboundCallsInterceptor {
  constructor(private readonly attributes: Record<string, string>) {}

  execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    Object.assign(this.attributes, spanAttributesOfInput(input.args[0]));
    // The active span here is the run's span, started by the OpenTelemetry interceptor around us.
    trace.getActiveSpan()?.setAttributes(this.attributes);
    return next(input);
  }
}

class SpanAttributesOutbound implements WorkflowOutboundCallsInterceptor {
  constructor(private readonly attributes: Record<string, string>) {}

  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>): Promise<unknown> {
    return next({ ...input, headers: this.withAttributes(input.headers) });
  }

  scheduleLocalActivity(input: LocalActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>): Promise<unknown> {
    return next({ ...input, headers: this.withAttributes(input.headers) });
  }

  private withAttributes(headers: ActivityInput['headers']): ActivityInput['headers'] {
    return { ...headers, [SPAN_ATTRIBUTES_HEADER]: defaultPayloadConverter.toPayload(this.attributes) };
  }
}

/** Called by the SDK once per workflow run; the first interceptor of a list is the outermost. */
export const interceptors = (): WorkflowInterceptors => {
  const attributes: Record<string, string> = {};
  return {
    inbound: [new OpenTelemetryInboundInterceptor(), new SpanAttributesInbound(attributes)],
    outbound: [new OpenTelemetryOutboundInterceptor(), new SpanAttributesOutbound(attributes)],
    internals: [new OpenTelemetryInternalsInterceptor()],
  };
};
