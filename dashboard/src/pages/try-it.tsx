import { useMemo, useState } from 'preact/hooks';
import { MODALITIES, type Modality } from '../../../domain/modalities';
import type { Plan } from '../../../domain/plans';
import { ApiError, type Schemas } from '../api';
import { ErrorNotice, Spinner, useAsync } from '../components/async';
import { between, formatCredits, formatDuration } from '../components/format';
import { useGenerationRun, type Run } from '../components/generation-run';
import { MediaView } from '../components/media-view';
import { InputFileField, type InputFile } from '../components/input-file-field';
import { estimateRequest } from '../components/request-estimate';
import { EstimateLine, fileInput, initialParams, RequestFields, requestBody, takesTextRequests, tryable, type RequestValues } from '../components/request-form';
import { mayCreate, planAllowsModel, studioPlusNote } from '../permissions';
import { href, navigate, type ViewProps } from '../router';
import { useSession } from '../session-context';
import './try-it.css';

// Try it (#/try, #/try/<modality>?model=<slug>): a form per modality, built from the chosen model's
// capabilities and limits (GET /v1/models), with an input file for the models that take one (an
// image for upscale, image-to-image, image-to-video, image-to-3D; audio for voice cloning and
// transcription), the credits it will reserve before it is
// sent (the API's own pricing rule), then the result as the generation's detail page shows it.

type Model = Schemas['Model'];

const MODALITY_TITLE: Record<Modality, string> = {
  image: 'Image',
  video: 'Video',
  voice: 'Voice',
  music: 'Music',
  avatar: 'Avatar',
  chat: 'Chat',
  '3d': '3D',
  upscale: 'Upscale',
};

export function TryIt({ location }: ViewProps) {
  const { api, identity } = useSession();
  const models = useAsync(() => api.models.list(), [api]);
  const allowed = MODALITIES.filter((m) => mayCreate(identity, m));
  const modality = location.segments[1] as Modality | undefined;

  return (
    <section class="try-it">
      <h1>Try it</h1>
      {allowed.length === 0 ? (
        <p class="notice" role="note">
          This key may not create generations: it needs the developer role or above and a modality's write scope.
        </p>
      ) : (
        <nav class="modality-tabs" aria-label="Modality">
          {allowed.map((m) => (
            <a key={m} href={href(['try', m])} aria-current={m === modality ? 'page' : undefined} class="btn btn-plain">
              {MODALITY_TITLE[m]}
            </a>
          ))}
        </nav>
      )}
      <ErrorNotice error={models.error} />
      {modality && !allowed.includes(modality) && (
        <p class="notice notice-error" role="alert">
          This key may not create {modality} generations.
        </p>
      )}
      {modality && allowed.includes(modality) && !models.data && models.loading && <Spinner label="Loading the models…" />}
      {modality && allowed.includes(modality) && models.data && (
        <ModalityForm key={modality} models={models.data.data.filter((m) => m.modality === modality)} chosen={location.query.get('model') ?? undefined} />
      )}
      {!modality && allowed.length > 0 && <p class="muted">Pick a modality to build a request.</p>}
    </section>
  );
}

function ModalityForm({ models, chosen }: { models: Model[]; chosen: string | undefined }) {
  const { identity } = useSession();
  const usable = models.filter(tryable).filter((m) => planAllowsModel(identity, m));
  const planNote = studioPlusNote(identity, models.filter(tryable));
  // By default a model that works from text alone: the form is ready to send with just a prompt.
  const model = usable.find((m) => m.slug === chosen) ?? usable.find(takesTextRequests) ?? usable[0];
  if (!model) {
    return (
      <p class="notice" role="note">
        No model of this modality is available to this key.
      </p>
    );
  }
  return (
    <>
      {planNote && (
        <p class="muted small" data-testid="plan-note">
          {planNote}
        </p>
      )}
      <RequestForm key={model.slug} model={model} models={usable} />
    </>
  );
}

function RequestForm({ model, models }: { model: Model; models: Model[] }) {
  const { api, identity } = useSession();
  const [values, setValues] = useState<RequestValues>(() => ({ prompt: '', params: initialParams(model.modality, [model]) }));
  const takesFile = fileInput(model, values.params);
  const [input, setInput] = useState<InputFile | undefined>();
  const [missingInput, setMissingInput] = useState(false);
  const body = useMemo(() => ({ ...requestBody(model, values), ...(takesFile && input && { [takesFile.field]: input.url }) }), [model, values, takesFile, input]);
  const estimate = useMemo(() => estimateRequest(model, body, identity.organization.plan as Plan, input), [model, body, identity, input]);
  const { run, send } = useGenerationRun(api);
  const busy = run.phase === 'sending' || run.phase === 'following';

  const changeValues = (next: RequestValues) => {
    // Another voice operation takes another input (or none): the field starts afresh, and so does the input.
    if (next.params.operation !== values.params.operation) setInput(undefined);
    setValues(next);
  };
  const chooseInput = (value: InputFile | undefined) => {
    setInput(value);
    if (value) setMissingInput(false);
  };
  const submit = (event: Event) => {
    event.preventDefault();
    if (takesFile?.need === 'required' && !input) {
      setMissingInput(true);
      return;
    }
    void send(model.modality, body);
  };

  return (
    <div class="try-layout">
      <form class="form card" onSubmit={submit} data-testid="try-form">
        <div class="field">
          <label for="try-model">Model</label>
          <select id="try-model" value={model.slug} onChange={(e) => navigate(href(['try', model.modality], { model: e.currentTarget.value }))}>
            {models.map((m) => (
              <option key={m.slug} value={m.slug}>
                {m.name} ({m.slug})
              </option>
            ))}
          </select>
          <span class="muted small">
            {model.mode === 'async' ? 'Asynchronous: runs in the background, followed here until done.' : 'Synchronous: answered when done.'} Priced per{' '}
            {model.pricing.unit.replace(/_/g, ' ')}: {model.pricing.credits_per_unit} credits before the plan multiplier.
          </span>
        </div>
        {takesFile && (
          <InputFileField
            key={`${takesFile.kind}-${String(values.params.operation)}`}
            id="try-input"
            label={takesFile.kind === 'image' ? 'Input image' : 'Input audio'}
            kind={takesFile.kind}
            required={takesFile.need === 'required'}
            value={input}
            onChange={chooseInput}
          />
        )}
        {missingInput && takesFile && (
          <p class="notice notice-error" role="alert">
            Choose the {takesFile.kind === 'image' ? 'input image first: upload a file or pick' : 'input audio first: pick'} one of your recent outputs.
          </p>
        )}
        <RequestFields modality={model.modality} models={[model]} values={values} onChange={changeValues} idPrefix="try" />
        <EstimateLine estimate={estimate} multiplier={identity.organization.multiplier} />
        <div>
          <button type="submit" class="btn btn-primary" disabled={busy} aria-busy={busy}>
            {busy ? <Spinner label="Generating…" /> : 'Generate'}
          </button>
        </div>
      </form>
      <RunResult run={run} />
    </div>
  );
}

function RunResult({ run }: { run: Run }) {
  switch (run.phase) {
    case 'idle':
      return null;
    case 'sending':
      return (
        <div class="card try-result">
          <Spinner label="Sending…" />
        </div>
      );
    case 'refused':
      return (
        <div class="try-result" data-testid="try-error">
          <ErrorNotice error={run.error} />
          {run.error instanceof ApiError && run.error.status < 500 && <p class="muted small">Nothing was charged: the request was refused before it ran.</p>}
        </div>
      );
    case 'unseen':
      return (
        <div class="try-result">
          <ErrorNotice error={run.error} />
          <a href={href(['generations', run.id])}>Open {run.id}</a>
        </div>
      );
    case 'following':
    case 'done': {
      const g = run.generation;
      return (
        <div class="card try-result" data-testid="try-result" data-generation-id={g.id} data-status={g.status}>
          <h2>
            Result{' '}
            <span class={`badge status-${g.status}`} data-testid="try-status">
              {g.status}
            </span>
          </h2>
          {run.phase === 'following' && <Spinner label={`${g.status === 'queued' ? 'Queued' : 'Running'}: checking every second…`} />}
          {g.error_message && (
            <p class="notice notice-error" role="alert">
              {g.error_message}
            </p>
          )}
          {run.phase === 'done' && <MediaView generation={g} />}
          <dl class="try-facts">
            <dt>Reserved</dt>
            <dd data-testid="try-reserved">{formatCredits(g.reserved_credits)}</dd>
            <dt>Charged</dt>
            <dd data-testid="try-charged">{run.phase === 'done' ? formatCredits(g.charged_credits) : '—'}</dd>
            <dt>Time</dt>
            <dd>{formatDuration(between(g.created_at, g.finished_at))}</dd>
          </dl>
          <a href={href(['generations', g.id])} data-testid="try-detail-link">
            Open {g.id}
          </a>
        </div>
      );
    }
  }
}
