import { useEffect, useRef, useState } from 'preact/hooks';
import { ConnectionError, apiErrorFrom } from '../../../clients/typescript/src/errors.js';
import { unwrap } from '../../../clients/typescript/src/request.js';
import type { Api, Schemas } from '../api';
import { mayCall } from '../permissions';
import { useSession } from '../session-context';
import { ErrorNotice, Spinner, useAsync } from './async';
import './input-file-field.css';

// The input file of a request (its `image_url` or `audio_url`): an image of the person's, sent
// through the API's upload flow (POST /v1/uploads, then a PUT of the bytes to the signed
// `upload_url`, docs/api.md "Uploads and input files"; uploads take images only), or one of the
// organization's recent outputs of that kind, whose signed URL the API takes as an input. Either
// way the form also learns the file's measures, which an upscale (the image's size) and a
// transcription (the audio's length) are priced on (domain/request-measures.ts).

type Generation = Schemas['Generation'];
type Upload = Schemas['Upload'];
type Output = Schemas['GenerationOutput'];

/** The chosen input: the URL the request carries and the measures its price may depend on. */
export interface InputFile {
  url: string;
  width?: number;
  height?: number;
  durationMs?: number;
}

type Kind = 'image' | 'audio';

type Source = 'none' | 'upload' | 'recent';

/** What POST /v1/uploads takes (decisions §6); anything else is the API's to refuse, with its message. */
const ACCEPT = 'image/png,image/jpeg,image/webp';

/** PUTs `file` to the signed URL, reporting the fraction sent; a refusal becomes the API's typed error. */
function putFile(upload: Upload, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    // XMLHttpRequest, not fetch: only it reports upload progress.
    const xhr = new XMLHttpRequest();
    xhr.open(upload.method, upload.upload_url);
    for (const [name, value] of Object.entries(upload.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
    xhr.onerror = () => reject(new ConnectionError('the upload did not reach the storage'));
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        // Not JSON (S3 answers XML): the status line says what happened.
      }
      const requestId = xhr.getResponseHeader('x-request-id');
      reject(apiErrorFrom(new Response(null, { status: xhr.status, statusText: xhr.statusText, headers: requestId ? { 'x-request-id': requestId } : {} }), body));
    };
    xhr.send(file);
  });
}

/** The image's pixel size, read by the browser from the file itself. */
async function imageSizeOf(file: File): Promise<{ width: number; height: number } | undefined> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = { width: bitmap.width, height: bitmap.height };
    bitmap.close();
    return size;
  } catch {
    return undefined; // not an image the browser reads: the API will say what is wrong with it
  }
}

/** The modalities whose outputs are files of each kind, and the measure each output must carry. */
const RECENT: Record<Kind, { modalities: ('image' | 'voice' | 'music')[]; measured(o: Output): boolean }> = {
  image: { modalities: ['image'], measured: (o) => Boolean(o.width && o.height) },
  audio: { modalities: ['voice', 'music'], measured: (o) => Boolean(o.duration_s) },
};

/** The organization's last 20 succeeded generations of each modality making `kind`, each output of that kind. */
async function recentOutputs(api: Api, kind: Kind): Promise<{ generation: Generation; output: Output }[]> {
  const pages = await Promise.all(
    RECENT[kind].modalities.map((modality) =>
      unwrap<{ data: Generation[] }>(api.api.GET('/v1/generations', { params: { query: { modality, status: 'succeeded', limit: '20' } } })),
    ),
  );
  return pages
    .flatMap((page) => page.data)
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
    .flatMap((g) => g.outputs.filter((o) => o.mime.startsWith(`${kind}/`) && RECENT[kind].measured(o)).map((o) => ({ generation: g, output: o })));
}

const measuresOf = (o: Output): InputFile => ({
  url: o.url,
  ...(o.width && o.height && { width: o.width, height: o.height }),
  ...(o.duration_s && { durationMs: Math.round(Number(o.duration_s) * 1000) }),
});

const describe = (o: Output): string => (o.width && o.height ? `${o.width}×${o.height}` : `${o.duration_s} s`);

export function InputFileField(props: { id: string; label: string; kind: Kind; required: boolean; value: InputFile | undefined; onChange(value: InputFile | undefined): void }) {
  const { api, identity } = useSession();
  const mayUpload = props.kind === 'image' && mayCall(identity, 'createUpload');
  const sources: Source[] = [...(props.required ? [] : ['none' as const]), ...(mayUpload ? ['upload' as const] : []), 'recent'];
  const [source, setSource] = useState<Source>(sources[0]!);
  const choose = (next: Source) => {
    setSource(next);
    props.onChange(undefined);
  };
  const title: Record<Source, string> = { none: 'None', upload: 'Upload a file', recent: 'One of your recent outputs' };

  return (
    <fieldset class="field input-file" data-testid={`${props.id}-field`}>
      <legend>{props.label}</legend>
      <div class="input-file-sources" role="radiogroup" aria-label={`${props.label}: where from`}>
        {sources.map((s) => (
          <label key={s}>
            <input type="radio" name={`${props.id}-source`} value={s} checked={source === s} onChange={() => choose(s)} /> {title[s]}
          </label>
        ))}
      </div>
      {source === 'upload' && <UploadPicker id={props.id} api={api} onChange={props.onChange} />}
      {source === 'recent' && <RecentPicker id={props.id} api={api} kind={props.kind} onChange={props.onChange} />}
      {props.kind === 'audio' && <p class="muted small">Uploads take images only: an audio input is one of your voice or music outputs.</p>}
      {source !== 'none' && props.kind === 'image' && (
        <div class="input-file-preview">
          {props.value ? (
            <img src={props.value.url} alt={`The chosen ${props.label.toLowerCase()}`} data-testid={`${props.id}-preview`} />
          ) : (
            <span class="muted small">No image chosen yet</span>
          )}
        </div>
      )}
      {source !== 'none' && props.kind === 'audio' && (
        <div class="input-file-audio">{props.value && <audio src={props.value.url} controls preload="metadata" aria-label={`The chosen ${props.label.toLowerCase()}`} />}</div>
      )}
    </fieldset>
  );
}

type UploadState = { phase: 'idle' } | { phase: 'sending'; name: string; fraction: number } | { phase: 'done'; name: string; size: string } | { phase: 'failed'; error: unknown };

function UploadPicker({ id, api, onChange }: { id: string; api: Api; onChange(value: InputFile | undefined): void }) {
  const [state, setState] = useState<UploadState>({ phase: 'idle' });
  // The latest file picked while mounted: an upload that finishes after another pick, or after the
  // person switched to a recent output, must not become the input.
  const latest = useRef(0);
  useEffect(
    () => () => {
      latest.current = -1;
    },
    [],
  );
  const pick = async (file: File | undefined) => {
    const mine = ++latest.current;
    const current = () => latest.current === mine;
    onChange(undefined);
    if (!file) {
      setState({ phase: 'idle' });
      return;
    }
    setState({ phase: 'sending', name: file.name, fraction: 0 });
    try {
      const upload = await unwrap<Upload>(api.api.POST('/v1/uploads', { body: { filename: file.name, content_type: file.type as Upload['content_type'], size_bytes: file.size } }));
      await putFile(upload, file, (fraction) => current() && setState({ phase: 'sending', name: file.name, fraction }));
      const size = await imageSizeOf(file);
      if (!size) throw new Error(`${file.name} was uploaded, but this browser cannot read it as an image to measure it.`);
      if (!current()) return;
      setState({ phase: 'done', name: file.name, size: `${size.width}×${size.height}` });
      onChange({ url: upload.file_url, ...size });
    } catch (error) {
      if (current()) setState({ phase: 'failed', error });
    }
  };
  return (
    <div class="input-file-upload">
      <label for={`${id}-file`} class="small">
        PNG, JPEG or WebP, 20 MB at most
      </label>
      <input id={`${id}-file`} type="file" accept={ACCEPT} onChange={(e) => void pick(e.currentTarget.files?.[0])} />
      <div class="input-file-status small" data-testid={`${id}-status`} aria-live="polite">
        {state.phase === 'sending' && <Spinner label={`Uploading ${state.name}: ${Math.round(state.fraction * 100)}%`} />}
        {state.phase === 'done' && (
          <span>
            Uploaded {state.name} ({state.size})
          </span>
        )}
      </div>
      {state.phase === 'failed' && (
        <div data-testid={`${id}-error`}>
          <ErrorNotice error={state.error} />
        </div>
      )}
    </div>
  );
}

function RecentPicker({ id, api, kind, onChange }: { id: string; api: Api; kind: Kind; onChange(value: InputFile | undefined): void }) {
  const recent = useAsync(() => recentOutputs(api, kind), [api, kind]);
  const [chosen, setChosen] = useState('');
  const choose = (outputId: string) => {
    setChosen(outputId);
    const found = recent.data?.find((r) => r.output.id === outputId)?.output;
    onChange(found ? measuresOf(found) : undefined);
  };
  const noun = kind === 'image' ? 'image' : 'voice or music output';
  return (
    <div class="input-file-recent">
      <label for={`${id}-recent`} class="small">
        A recent {noun} of your organization
      </label>
      <select id={`${id}-recent`} value={chosen} disabled={!recent.data} onChange={(e) => choose(e.currentTarget.value)}>
        <option value="">{recent.data ? (recent.data.length ? `Choose ${kind === 'image' ? 'an image' : 'an audio output'}…` : `No recent ${noun} yet`) : 'Loading…'}</option>
        {recent.data?.map(({ generation, output }) => (
          <option key={output.id} value={output.id}>
            {generation.model}: {generation.prompt.slice(0, 40) || generation.id} ({describe(output)})
          </option>
        ))}
      </select>
      <ErrorNotice error={recent.error} />
    </div>
  );
}
