import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter, type OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { InjectedSink } from '@temporalio/worker';

// The sink through which the workflow sandbox's spans reach the process's span processor. Temporal's
// own (makeWorkflowExporter) copies the whole WorkflowInfo onto every span, memo and search
// attributes included: a memo may hold an excerpt of the request's prompt, and nested objects are
// no span attribute anyway. This one hands it the fields that name the run, and nothing else.

const INFO_FIELDS = ['workflowId', 'runId', 'workflowType', 'taskQueue', 'namespace', 'attempt'] as const;

export function workflowSpanSink(spanProcessor: SpanProcessor, resource: Resource): InjectedSink<OpenTelemetryWorkflowExporter> {
  const sink = makeWorkflowExporter(spanProcessor, resource);
  return {
    export: {
      ...sink.export,
      fn: (info, spans) => {
        const named = Object.fromEntries(INFO_FIELDS.map((field) => [field, info[field]]));
        // The SDK's function only copies the info's fields onto the spans (Object.assign).
        return sink.export.fn(named as unknown as WorkflowInfo, spans);
      },
    },
  };
}
