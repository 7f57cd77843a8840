import { useMemo, useState } from 'preact/hooks';
import { MODALITIES, PROMPT_FIELD, type Modality } from '../../../domain/modalities';
import { COMPARISON_MODEL_CAP, COMPARISON_MODELS, type Plan } from '../../../domain/plans';
import type { Schemas } from '../api';
import { mayCreate, planAllowsModel, studioPlusNote } from '../permissions';
import { useSession } from '../session-context';
import { ActionButton, ErrorNotice, Spinner, useAsync } from './async';
import { estimateRequest, sumEstimates } from './request-estimate';
import { EstimateLine, initialParams, RequestFields, requestBody, takesTextRequests, type RequestValues } from './request-form';

// A new comparison: one modality, 2 to 12 of its models (as many as the plan allows), one prompt
// and the parameters every model shares; the total it will reserve is shown before it is sent,
// the sum of each model's own estimate, as the API prices a comparison.

type Model = Schemas['Model'];

/** The document types params_shared as an open object (it depends on the modality), which openapi-typescript reads as one with no fields. */
const sharedParams = (params: RequestValues['params']) => params as Record<string, never>;

/** The modalities a comparison can take from this form: a text request the key may create. */
const comparable = (m: Modality) => PROMPT_FIELD[m] !== null;

export function ComparisonForm({ onCreated }: { onCreated(comparison: Schemas['Comparison']): void }) {
  const { api, identity } = useSession();
  const catalog = useAsync(() => api.models.list(), [api]);
  const modalities = MODALITIES.filter((m) => comparable(m) && mayCreate(identity, m));
  const [modality, setModality] = useState<Modality | undefined>(modalities[0]);

  if (catalog.error) return <ErrorNotice error={catalog.error} />;
  if (!catalog.data) return <Spinner label="Loading the models…" />;
  if (!modality) return <p class="muted">This key may not create any modality a comparison can take.</p>;
  const candidates = catalog.data.data.filter((m) => m.modality === modality && takesTextRequests(m));
  const models = candidates.filter((m) => planAllowsModel(identity, m));
  const planNote = studioPlusNote(identity, candidates);
  return (
    <div class="form">
      <div class="field">
        <label for="cmp-modality">Modality</label>
        <select id="cmp-modality" value={modality} onChange={(e) => setModality(e.currentTarget.value as Modality)}>
          {modalities.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </div>
      {planNote && (
        <p class="muted small" data-testid="plan-note">
          {planNote}
        </p>
      )}
      <ModelsAndPrompt key={modality} modality={modality} models={models} onCreated={onCreated} />
    </div>
  );
}

function ModelsAndPrompt({ modality, models, onCreated }: { modality: Modality; models: Model[]; onCreated(comparison: Schemas['Comparison']): void }) {
  const { api, identity } = useSession();
  const plan = identity.organization.plan as Plan;
  const cap = Math.min(COMPARISON_MODELS.max, COMPARISON_MODEL_CAP[plan]);
  const [picked, setPicked] = useState<string[]>([]);
  const chosen = models.filter((m) => picked.includes(m.slug));
  const [values, setValues] = useState<RequestValues>({ prompt: '', params: {} });
  // The shared fields follow the chosen models (the aspect ratios all of them take, ...).
  const params = useMemo(() => ({ ...initialParams(modality, chosen.length ? chosen : models, true), ...values.params }), [modality, picked, values.params]);
  const estimate = useMemo(
    () => (chosen.length ? sumEstimates(chosen.map((m) => estimateRequest(m, requestBody(m, { prompt: values.prompt, params }), plan))) : undefined),
    [picked, values.prompt, params],
  );
  const toggle = (slug: string, on: boolean) => setPicked((p) => (on ? [...p, slug] : p.filter((s) => s !== slug)));
  const tooFew = chosen.length < COMPARISON_MODELS.min;

  return (
    <>
      <fieldset class="field cmp-models">
        <legend>
          Models{' '}
          <span class="muted small">
            (pick {COMPARISON_MODELS.min} to {cap}; your plan allows {cap})
          </span>
        </legend>
        {models.map((m) => (
          <label key={m.slug} class="cmp-model">
            <input
              type="checkbox"
              value={m.slug}
              checked={picked.includes(m.slug)}
              disabled={!picked.includes(m.slug) && picked.length >= cap}
              onChange={(e) => toggle(m.slug, e.currentTarget.checked)}
            />{' '}
            {m.name} <span class="muted small">({m.slug})</span>
          </label>
        ))}
        {models.length === 0 && <p class="muted">No model of this modality is available to this key.</p>}
      </fieldset>
      <RequestFields modality={modality} models={chosen.length ? chosen : models} values={{ prompt: values.prompt, params }} onChange={setValues} shared idPrefix="cmp" />
      <EstimateLine estimate={estimate} multiplier={identity.organization.multiplier} label="Estimated total" />
      <div>
        <ActionButton
          variant="primary"
          disabled={tooFew || !values.prompt}
          busyLabel="Starting…"
          testId="cmp-submit"
          action={() => api.comparisons.create({ prompt: values.prompt, models: chosen.map((m) => m.slug), params_shared: sharedParams(params) })}
          onDone={onCreated}
        >
          Compare {chosen.length || ''} models
        </ActionButton>
      </div>
    </>
  );
}
