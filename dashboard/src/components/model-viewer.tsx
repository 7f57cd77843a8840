import { useEffect, useRef, useState } from 'preact/hooks';
import { parseGlb } from '../three-d/glb';
import { createModelRenderer, type Camera, type ModelRenderer } from '../three-d/renderer';
import { Spinner } from './async';

// A 3D output (glTF binary) turned in the page, as <model-viewer> would show it: drag, or the arrow
// keys, to turn it; the wheel, or + and -, to zoom; 0 to reset. The download is always offered,
// and is all there is when the file cannot be previewed (compressed meshes, no WebGL).

const START: Camera = { yaw: 0.6, pitch: 0.35, zoom: 1 };
const STEP = Math.PI / 16;

/** The page's surface colour (the theme's), as WebGL's clear colour. */
function surfaceColour(element: Element): [number, number, number] {
  const match = /(\d+),\s*(\d+),\s*(\d+)/.exec(getComputedStyle(element).backgroundColor);
  return match ? [Number(match[1]) / 255, Number(match[2]) / 255, Number(match[3]) / 255] : [0.5, 0.5, 0.5];
}

export function ModelViewer({ url, label }: { url: string; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const renderer = useRef<ModelRenderer>();
  const camera = useRef<Camera>({ ...START });
  const [state, setState] = useState<{ kind: 'loading' } | { kind: 'ready' } | { kind: 'error'; message: string }>({ kind: 'loading' });

  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    let cancelled = false;
    const scale = Math.min(devicePixelRatio || 1, 2);
    element.width = Math.round(element.clientWidth * scale);
    element.height = Math.round(element.clientHeight * scale);
    fetch(url)
      .then((res) => {
        if (!res.ok) throw new Error(`The file could not be fetched (HTTP ${res.status}).`);
        return res.arrayBuffer();
      })
      .then((file) => {
        if (cancelled) return;
        renderer.current = createModelRenderer(element, parseGlb(file), surfaceColour(element.parentElement ?? element));
        renderer.current.draw(camera.current);
        setState({ kind: 'ready' });
      })
      .catch((err: unknown) => !cancelled && setState({ kind: 'error', message: err instanceof Error ? err.message : String(err) }));
    return () => {
      cancelled = true;
      renderer.current?.dispose();
    };
  }, [url]);

  const turn = (change: Partial<Camera>) => {
    const next = { ...camera.current, ...change };
    next.pitch = Math.max(-1.4, Math.min(1.4, next.pitch));
    next.zoom = Math.max(0.3, Math.min(4, next.zoom));
    camera.current = next;
    renderer.current?.draw(next);
  };

  const onKey = (event: KeyboardEvent) => {
    const c = camera.current;
    const moves: Record<string, Partial<Camera>> = {
      ArrowLeft: { yaw: c.yaw - STEP },
      ArrowRight: { yaw: c.yaw + STEP },
      ArrowUp: { pitch: c.pitch - STEP },
      ArrowDown: { pitch: c.pitch + STEP },
      '+': { zoom: c.zoom / 1.2 },
      '=': { zoom: c.zoom / 1.2 },
      '-': { zoom: c.zoom * 1.2 },
      '0': START,
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    turn(move);
  };

  const drag = useRef<{ x: number; y: number } | undefined>();
  return (
    <div class="model-viewer" data-testid="model-viewer" data-state={state.kind}>
      <div class="model-stage">
        <canvas
          ref={canvas}
          tabIndex={0}
          role="img"
          aria-label={`${label}. 3D preview: drag or use the arrow keys to turn it, + and - to zoom, 0 to reset.`}
          onKeyDown={onKey}
          onPointerDown={(e) => {
            drag.current = { x: e.clientX, y: e.clientY };
            e.currentTarget.setPointerCapture(e.pointerId);
          }}
          onPointerMove={(e) => {
            if (!drag.current) return;
            const c = camera.current;
            turn({ yaw: c.yaw + (e.clientX - drag.current.x) * 0.01, pitch: c.pitch + (e.clientY - drag.current.y) * 0.01 });
            drag.current = { x: e.clientX, y: e.clientY };
          }}
          onPointerUp={() => (drag.current = undefined)}
          onWheel={(e) => {
            e.preventDefault();
            turn({ zoom: camera.current.zoom * (e.deltaY > 0 ? 1.1 : 1 / 1.1) });
          }}
        />
        {state.kind === 'loading' && (
          <div class="model-overlay">
            <Spinner label="Loading the 3D model…" />
          </div>
        )}
        {state.kind === 'error' && (
          <div class="model-overlay" role="status">
            No preview: {state.message}
          </div>
        )}
      </div>
      <a class="btn btn-plain download" href={url} download>
        Download 3D model (.glb)
      </a>
    </div>
  );
}
