import { ASPECT_RATIOS } from '../../../domain/image-sizes';
import { MUSIC_DURATION_S } from '../../../domain/media-durations';
import { PROMPT_FIELD, type Modality } from '../../../domain/modalities';
import type { Schemas } from '../api';
import { formatCredits } from './format';
import type { Estimate } from './request-estimate';

// The fields of a creation request, built from the chosen models' capabilities and limits
// (GET /v1/models): only the aspect ratios, counts and durations the models take are offered. Try
// it shows them for one model; a comparison shows the ones every model shares. The input image
// (image_url) is Try it's own field (input-file-field.tsx); which models take one is said here.

type Model = Schemas['Model'];

/** What a person fills in: the text (prompt, text to speak, or the chat message) and the other parameters. */
export interface RequestValues {
  prompt: string;
  params: Record<string, string | number | boolean>;
}

interface FieldSpec {
  name: string;
  label: string;
  kind: 'select' | 'number' | 'checkbox';
  options?: readonly (string | number)[];
  /** What a select shows for each option, when not the value itself. */
  optionLabels?: Record<string, string>;
  min?: number;
  max?: number;
  step?: number;
  initial: string | number | boolean;
  /** Shown on a comparison form (every model gets it). */
  shared?: boolean;
}

const TEXT_LABEL: Record<Modality, string> = {
  image: 'Prompt',
  video: 'Prompt',
  music: 'Prompt',
  '3d': 'Prompt',
  voice: 'Text to speak',
  avatar: 'Text the avatar says',
  chat: 'Message',
  upscale: 'Prompt',
};

/** Models a form can drive: available to the key, and taking a text request (not only an uploaded file). */
export function takesTextRequests(model: Model): boolean {
  if (!model.available) return false;
  switch (model.modality) {
    case 'voice':
      return model.capabilities.includes('text_to_voice');
    case 'avatar':
      return (model.inputs ?? []).includes('text');
    case 'upscale':
      return false;
    default:
      return model.capabilities.some((c) => c.startsWith('text_to_'));
  }
}

/** Capabilities that take an input image as `image_url` next to the prompt. */
const IMAGE_INPUT_CAPABILITIES = ['image_to_image', 'image_to_video', 'image_to_3d'];

/** Voice operations (POST /v1/voice `operation`) and the capability each needs, as the API checks them. */
const VOICE_OPERATIONS = [
  { operation: 'tts', capability: 'text_to_voice', label: 'Text to speech' },
  { operation: 'voice_clone', capability: 'voice_clone', label: 'Speak in the voice of a sample' },
  { operation: 'transcription', capability: 'transcription', label: 'Transcribe audio' },
] as const;

const VOICE_OPERATION_LABELS: Record<string, string> = Object.fromEntries(VOICE_OPERATIONS.map((o) => [o.operation, o.label]));

/** The input file a request takes: the body field, the kind of file, and whether it must be given. */
export interface FileInputSpec {
  field: 'image_url' | 'audio_url';
  kind: 'image' | 'audio';
  need: 'required' | 'optional';
}

/**
 * The input file a model takes with these parameters: an image (`image_url`), required for
 * upscaling and for models that only work from an image (image-to-video only), optional for those
 * that also take text alone (avatar models that animate a portrait say so in `inputs`); or an audio
 * sample (`audio_url`) for voice cloning and transcription. Undefined when it takes none.
 */
export function fileInput(model: Model, params: RequestValues['params']): FileInputSpec | undefined {
  if (model.modality === 'voice') {
    const operation = params.operation ?? 'tts';
    return operation === 'voice_clone' || operation === 'transcription' ? { field: 'audio_url', kind: 'audio', need: 'required' } : undefined;
  }
  if (model.capabilities.includes('image_upscale')) return { field: 'image_url', kind: 'image', need: 'required' };
  const takesImage = model.capabilities.some((c) => IMAGE_INPUT_CAPABILITIES.includes(c)) || (model.modality === 'avatar' && (model.inputs ?? []).includes('image_url'));
  if (!takesImage) return undefined;
  return { field: 'image_url', kind: 'image', need: takesTextRequests(model) ? 'optional' : 'required' };
}

/** Models Try it can drive: those taking a text request, and those working from an input file (upscale, image-to-video only, transcription). */
export const tryable = (model: Model): boolean => model.available && (takesTextRequests(model) || fileInput(model, initialParams(model.modality, [model]))?.need === 'required');

const common = <T,>(lists: (readonly T[] | undefined)[], fallback: readonly T[]): T[] => {
  const given = lists.filter((l): l is readonly T[] => l !== undefined);
  return (given.length ? given.reduce<readonly T[]>((acc, l) => acc.filter((v) => l.includes(v)), given[0]!) : fallback).slice();
};

/** The parameters `models` (one for Try it, several for a comparison) all accept, with their ranges. */
function fieldSpecs(modality: Modality, models: Model[]): FieldSpec[] {
  const limits = models.map((m) => m.limits);
  const least = (values: (number | undefined)[], fallback: number) => Math.min(fallback, ...values.filter((v): v is number => v !== undefined));
  const most = (values: (number | undefined)[], fallback: number) => Math.max(fallback, ...values.filter((v): v is number => v !== undefined));
  switch (modality) {
    case 'image': {
      const ratios = common(
        limits.map((l) => l.aspect_ratios),
        ASPECT_RATIOS,
      );
      return [
        { name: 'aspect_ratio', label: 'Aspect ratio', kind: 'select', options: ratios, initial: ratios[0] ?? '1:1', shared: true },
        {
          name: 'num_outputs',
          label: 'Images',
          kind: 'number',
          min: 1,
          max: least(
            limits.map((l) => l.max_outputs),
            4,
          ),
          initial: 1,
        },
      ];
    }
    case 'video': {
      const listed = limits[0]?.durations_s;
      const min = most(
        limits.map((l) => l.min_duration_s),
        1,
      );
      const duration: FieldSpec = listed
        ? { name: 'duration_s', label: 'Duration (s)', kind: 'select', options: listed, initial: listed[0]! }
        : {
            name: 'duration_s',
            label: 'Duration (s)',
            kind: 'number',
            min,
            max: least(
              limits.map((l) => l.max_duration_s),
              600,
            ),
            initial: min,
          };
      const ratios = limits[0]?.aspect_ratios;
      return [duration, ...(ratios ? [{ name: 'aspect_ratio', label: 'Aspect ratio', kind: 'select' as const, options: ratios, initial: ratios[0]! }] : [])];
    }
    case 'music': {
      const min = most(
        limits.map((l) => l.min_duration_s),
        MUSIC_DURATION_S.min,
      );
      const max = least(
        limits.map((l) => l.max_duration_s),
        MUSIC_DURATION_S.max,
      );
      return [
        { name: 'duration_s', label: 'Duration (s)', kind: 'number', min, max, initial: Math.min(max, Math.max(min, MUSIC_DURATION_S.default)), shared: true },
        { name: 'with_vocals', label: 'With vocals', kind: 'checkbox', initial: false },
      ];
    }
    case 'chat': {
      const max = least(
        limits.map((l) => l.max_output_tokens),
        8000,
      );
      return [
        { name: 'max_tokens', label: 'Max tokens', kind: 'number', min: 1, max, initial: Math.min(1024, max), shared: true },
        { name: 'temperature', label: 'Temperature', kind: 'number', min: 0, max: 2, step: 0.1, initial: 1 },
      ];
    }
    case '3d':
      return [
        { name: 'texture_size', label: 'Texture size', kind: 'select', options: ['1024', '2048', '4096'], initial: '1024', shared: true },
        { name: 'mesh_complexity', label: 'Mesh complexity', kind: 'select', options: ['low', 'medium', 'high'], initial: 'medium', shared: true },
        ...(models.every((m) => m.capabilities.includes('rigged_3d')) ? [{ name: 'rigged', label: 'Rigged', kind: 'checkbox' as const, initial: false }] : []),
      ];
    case 'voice': {
      const operations = VOICE_OPERATIONS.filter((o) => models.every((m) => m.capabilities.includes(o.capability))).map((o) => o.operation);
      return operations.length > 1 || operations[0] !== 'tts'
        ? [{ name: 'operation', label: 'Operation', kind: 'select', options: operations, optionLabels: VOICE_OPERATION_LABELS, initial: operations[0] ?? 'tts' }]
        : [];
    }
    case 'upscale': {
      const factors = common(
        limits.map((l) => l.scale_factors),
        [2, 4],
      ).map(String);
      return [
        { name: 'scale_factor', label: 'Scale factor', kind: 'select', options: factors, initial: factors[0] ?? '2' },
        ...(models.every((m) => m.capabilities.includes('face_restore')) ? [{ name: 'face_enhance', label: 'Restore faces', kind: 'checkbox' as const, initial: false }] : []),
      ];
    }
    default:
      return [];
  }
}

const specsFor = (modality: Modality, models: Model[], shared: boolean) => fieldSpecs(modality, models).filter((s) => !shared || s.shared);

/** The starting values for `models`: every priced field filled in, so the estimate never guesses a default. */
export function initialParams(modality: Modality, models: Model[], shared = false): RequestValues['params'] {
  return Object.fromEntries(specsFor(modality, models, shared).map((s) => [s.name, s.initial]));
}

/** Whether the request carries text: not an upscale, nor a transcription (which takes audio only). */
const takesText = (modality: Modality, params: RequestValues['params']): boolean => PROMPT_FIELD[modality] !== null && params.operation !== 'transcription';

/** The body of a creation request for one model. */
export function requestBody(model: Model, values: RequestValues): Record<string, unknown> {
  const field = takesText(model.modality, values.params) ? PROMPT_FIELD[model.modality] : null;
  const body: Record<string, unknown> = { model: model.slug, ...values.params };
  if (field === 'messages') {
    body.messages = [{ role: 'user', content: values.prompt }];
    if (body.system_prompt === '') delete body.system_prompt;
  } else if (field) body[field] = values.prompt;
  return body;
}

export function RequestFields(props: { modality: Modality; models: Model[]; values: RequestValues; onChange(values: RequestValues): void; shared?: boolean; idPrefix: string }) {
  const { modality, values, onChange, idPrefix } = props;
  const specs = specsFor(modality, props.models, props.shared ?? false);
  const set = (name: string, value: string | number | boolean) => onChange({ ...values, params: { ...values.params, [name]: value } });
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <>
      {modality === 'chat' && !props.shared && (
        <div class="field">
          <label for={id('system_prompt')}>System prompt (optional)</label>
          <textarea id={id('system_prompt')} rows={2} value={String(values.params.system_prompt ?? '')} onInput={(e) => set('system_prompt', e.currentTarget.value)} />
        </div>
      )}
      {takesText(modality, values.params) && (
        <div class="field">
          <label for={id('prompt')}>{TEXT_LABEL[modality]}</label>
          <textarea id={id('prompt')} rows={4} required value={values.prompt} onInput={(e) => onChange({ ...values, prompt: e.currentTarget.value })} />
          <span class="muted small">{values.prompt.length} characters</span>
        </div>
      )}
      {specs.length > 0 && (
        <div class="form-row">
          {specs.map((spec) => (
            <div class="field" key={spec.name}>
              <label for={id(spec.name)}>{spec.label}</label>
              {spec.kind === 'select' ? (
                <select
                  id={id(spec.name)}
                  value={String(values.params[spec.name] ?? spec.initial)}
                  onChange={(e) => set(spec.name, typeof spec.initial === 'number' ? Number(e.currentTarget.value) : e.currentTarget.value)}
                >
                  {spec.options!.map((o) => (
                    <option key={o} value={String(o)}>
                      {spec.optionLabels?.[String(o)] ?? o}
                    </option>
                  ))}
                </select>
              ) : spec.kind === 'number' ? (
                <input
                  id={id(spec.name)}
                  type="number"
                  min={spec.min}
                  max={spec.max}
                  step={spec.step ?? 1}
                  value={String(values.params[spec.name] ?? '')}
                  onInput={(e) => set(spec.name, e.currentTarget.value === '' ? '' : Number(e.currentTarget.value))}
                />
              ) : (
                <input id={id(spec.name)} type="checkbox" checked={values.params[spec.name] === true} onChange={(e) => set(spec.name, e.currentTarget.checked)} />
              )}
            </div>
          ))}
        </div>
      )}
    </>
  );
}

/** The estimate line shown before sending. */
export function EstimateLine({ estimate, multiplier, label = 'Estimated cost' }: { estimate: Estimate | undefined; multiplier: number; label?: string }) {
  return (
    <p class="estimate" data-testid="estimate" data-reserved={estimate?.reserved}>
      <strong>{label}:</strong>{' '}
      {estimate === undefined ? (
        <span class="muted">fill in the form to see it</span>
      ) : (
        <>
          <span data-testid="estimate-credits">{formatCredits(estimate.reserved)}</span>
          <span class="muted small">
            {' '}
            (plan multiplier ×{multiplier}
            {estimate.reserved === 0 && estimate.credits > 0 ? `; simulated output is free, the model's price is ${formatCredits(estimate.credits)}` : ''})
          </span>
        </>
      )}
    </p>
  );
}
