// Everything the worker registers. Workflow code only; activities are imported as types.
export { generationWorkflow } from './generation';
export { floorWorkflow } from './floor';
export { reconcilerWorkflow } from './reconciler';
