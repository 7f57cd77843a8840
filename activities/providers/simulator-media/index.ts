// Real media files for the built-in simulator (decisions §6): one renderer per media type.

export { renderAudio } from './audio';
export { renderImage } from './image';
export { renderImageFromInput } from './image-to-image';
export type { MediaLabel } from './label';
export { renderMesh } from './mesh';
export { transcribe } from './transcript';
export { upscaleImage } from './upscale';
export { renderVideo, videoSize } from './video';
