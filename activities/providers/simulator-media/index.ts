// Real media files for the built-in simulator (decisions §6): one renderer per media type.

export { renderAudio, MAX_AUDIO_MS, type AudioRequest } from './audio';
export { renderImage, type ImageRequest } from './image';
export { renderImageFromInput, type ImageToImageRequest } from './image-to-image';
export { renderMesh, type MeshRequest } from './mesh';
export { transcribe, type Transcript, type TranscribeRequest } from './transcript';
export { upscaleImage, MAX_UPSCALE_PIXELS, type UpscaleRequest } from './upscale';
export { renderVideo, videoSize, MAX_VIDEO_S, type VideoRequest } from './video';
