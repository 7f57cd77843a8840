// Everything the production worker registers. Workflow code only; activities are imported as
// types. The benchmarks' floor workflows are registered by bench and test workers only
// (bench/workflows/index.ts).
export { generationWorkflow } from './generation';
export { comparisonWorkflow } from './comparison';
export { reconcilerWorkflow } from './reconciler';
export { webhookDeliveryWorkflow } from './webhook-delivery';
export { webhookRelayWorkflow } from './webhook-relay';
export { webhookRecoveryWorkflow } from './webhook-recovery';
export { anomalyDetectorWorkflow } from './anomaly-detector';
export { eventRetentionWorkflow } from './event-retention';
export { outputRetentionWorkflow } from './output-retention';
