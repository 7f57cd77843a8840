// Everything the worker registers. Workflow code only; activities are imported as types.
export { generationWorkflow } from './generation';
export { comparisonWorkflow } from './comparison';
export { bareWorkflow, floorWorkflow } from './floor';
export { reconcilerWorkflow } from './reconciler';
export { webhookDeliveryWorkflow } from './webhook-delivery';
export { webhookRelayWorkflow } from './webhook-relay';
export { anomalyDetectorWorkflow } from './anomaly-detector';
