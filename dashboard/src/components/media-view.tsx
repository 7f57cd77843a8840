import type { Schemas } from '../api';
import { isTerminal } from '../../../domain/generation-status';
import { ModelViewer } from './model-viewer';

// A generation's outputs as a person wants them: images inline, video and audio in the browser's
// players, 3D in a viewer that turns it (and as a download), chat and transcripts as text.
// Sizes are reserved from the output's own width and height, so nothing shifts as media loads.

type Generation = Schemas['Generation'];
type Output = Schemas['GenerationOutput'];

const kindOf = (mime: string): 'image' | 'video' | 'audio' | 'other' =>
  mime.startsWith('image/') ? 'image' : mime.startsWith('video/') ? 'video' : mime.startsWith('audio/') ? 'audio' : 'other';

function OutputView({ output, alt }: { output: Output; alt: string }) {
  const size = output.width && output.height ? { width: output.width, height: output.height } : {};
  // As wide as the column allows, never wider than the file or 40rem, its height reserved by its
  // aspect ratio before a byte arrives (no layout shift).
  const ratio = output.width && output.height ? { aspectRatio: `${output.width} / ${output.height}`, width: '100%', maxWidth: `min(${output.width}px, 40rem)` } : {};
  switch (kindOf(output.mime)) {
    case 'image':
      return <img src={output.url} alt={alt} {...size} style={ratio} loading="lazy" decoding="async" data-output-id={output.id} />;
    case 'video':
      return <video src={output.url} controls preload="metadata" playsInline {...size} style={ratio} data-output-id={output.id} aria-label={alt} />;
    case 'audio':
      return <audio src={output.url} controls preload="metadata" data-output-id={output.id} aria-label={alt} />;
    default:
      if (output.mime === 'model/gltf-binary') return <ModelViewer url={output.url} label={alt} />;
      return (
        <a class="btn btn-plain download" href={output.url} download data-output-id={output.id}>
          Download ({output.mime})
        </a>
      );
  }
}

/** Every output of `generation`, and its text (chat, transcription) when it has one. */
export function MediaView({ generation }: { generation: Generation }) {
  const alt = `${generation.model}: ${generation.prompt.slice(0, 80)}`;
  return (
    <div class="media" data-testid="media">
      {generation.text !== undefined && <pre class="output">{generation.text}</pre>}
      {generation.outputs.map((output) => (
        <figure key={output.id} class="media-item">
          <OutputView output={output} alt={alt} />
          {output.duration_s && <figcaption class="muted small">{output.duration_s} s</figcaption>}
        </figure>
      ))}
      {generation.outputs.length === 0 && generation.text === undefined && <p class="muted">No output{isTerminal(generation.status) ? '' : ' yet'}.</p>}
    </div>
  );
}
