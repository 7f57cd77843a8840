import { MODALITY_MODE, type Modality } from '../../domain/modalities';
import { RETENTION_PATTERN } from '../../domain/output-retention';
import type { ErrorCode } from '../errors';
import type { Validator } from '../schemas/ajv';
import { parseAvatarRequest } from '../schemas/avatars';
import { parseChatRequest } from '../schemas/chat';
import { COMPARISON_REQUEST_SCHEMA } from '../schemas/comparisons';
import { parseGenerationListQuery } from '../schemas/generations';
import { parseImageRequest } from '../schemas/images';
import { parseListQuery } from '../schemas/list-query';
import { parseModelsQuery } from '../schemas/models';
import { parseMusicRequest } from '../schemas/music';
import { parseThreeDRequest } from '../schemas/three-d';
import { parseCreateUpload } from '../schemas/uploads';
import { parseUpscaleRequest } from '../schemas/upscale';
import { parseVideoRequest } from '../schemas/videos';
import { parseVoiceRequest } from '../schemas/voice';
import type { OperationDoc } from './operation-doc';
import { withMaxCredits } from './max-credits-field';
import { parseQuoteRequest } from '../schemas/quotes';

// The OpenAPI side of the generation routes: the eight creation endpoints, generations,
// comparisons, the catalog and uploads. Who may call each is the route table's (api/route-table.ts).

const generation = { component: 'Generation' } as const;

/** What every creation endpoint can refuse beyond authentication and validation (decisions §2, §4). */
const CREATION_ERRORS: readonly ErrorCode[] = [
  'unknown_model',
  'modality_mismatch',
  'capability_not_supported',
  'plan_upgrade_required',
  'insufficient_credits',
  'budget_exceeded',
  'max_cost_exceeded',
  'provider_unavailable',
];

/**
 * `retention`, which every creation body takes (api/middleware/output-retention.ts reads it before
 * the modality's own schema): documented on each body here.
 */
function withRetention(schema: object): object {
  const body = schema as { properties?: Record<string, object> };
  return {
    ...schema,
    properties: {
      ...body.properties,
      retention: {
        type: 'string',
        pattern: RETENTION_PATTERN,
        description:
          "How long the outputs' files are kept, from now: `1h` to `365d` (minutes, hours or days: `90m`, `12h`, `30d`), or `forever` (Enterprise). Default: the organization's `retention_days`, else the plan's (30 days unless configured). Shown as each output's `expires_at`.",
        example: '7d',
      },
    },
  };
}

const toGeneration = {
  getGeneration: { operationId: 'getGeneration', parameters: { id: '$response.body#/id' }, description: 'Poll the generation until it is terminal.' },
  cancelGeneration: { operationId: 'cancelGeneration', parameters: { id: '$response.body#/id' }, description: 'Cancel it while queued or running.' },
};

function creation(modality: Modality, summary: string, parser: Validator<unknown>, extra: { description?: string } = {}): OperationDoc {
  const sync = MODALITY_MODE[modality] === 'sync';
  const accepted = sync
    ? 'Still running when the sync window closed: poll GET /v1/generations/{id}.'
    : 'Accepted: the job runs in the background; poll GET /v1/generations/{id} or subscribe to generation.completed.';
  return {
    tag: 'Generations',
    summary,
    description: [
      extra.description,
      sync ? 'Synchronous: answers 200 with the finished generation when it ends within the sync window, else 202.' : 'Asynchronous: always answers 202.',
      'Credits are reserved on admission, then charged for what was produced; a failed or cancelled job is refunded.',
    ]
      .filter(Boolean)
      .join(' '),
    body: withRetention(withMaxCredits(parser.schema)),
    bodyRequired: true,
    responses: sync
      ? { 200: { description: 'The finished generation (succeeded or failed; a failed one is refunded).', body: generation }, 202: { description: accepted, body: generation } }
      : { 202: { description: accepted, body: generation } },
    errors: CREATION_ERRORS,
    links: sync ? { 200: toGeneration, 202: toGeneration } : { 202: toGeneration },
  };
}

export const GENERATION_OPERATIONS = {
  createImage: creation('image', 'Create an image', parseImageRequest, { description: 'Text-to-image, or image-to-image with `image_url`.' }),
  createVideo: creation('video', 'Create a video', parseVideoRequest, { description: 'Text-to-video, or image-to-video with `image_url`.' }),
  createVoice: creation('voice', 'Create speech, clone a voice, or transcribe', parseVoiceRequest),
  createMusic: creation('music', 'Create music', parseMusicRequest),
  createAvatar: creation('avatar', 'Create a talking avatar', parseAvatarRequest),
  createChat: {
    ...creation('chat', 'Create a chat completion', parseChatRequest),
    responses: {
      200: {
        description: 'The chat completion; or, for a request cancelled while it waited, its generation (`canceled`).',
        body: { schema: { oneOf: [{ $ref: '#/components/schemas/ChatCompletion' }, { $ref: '#/components/schemas/Generation' }] } },
      },
      202: { description: 'Still running when the sync window closed: poll GET /v1/generations/{id}.', body: generation },
    },
    links: { 202: toGeneration },
  },
  createThreeD: creation('3d', 'Create a 3D model', parseThreeDRequest),
  createUpscale: creation('upscale', 'Upscale an image or a video', parseUpscaleRequest),

  listGenerations: {
    tag: 'Generations',
    summary: 'List generations',
    description: 'Newest first, in pages (`limit`, `starting_after`), filtered by modality and status.',
    query: parseGenerationListQuery.schema,
    responses: { 200: { description: 'A page of generations.', body: { component: 'GenerationList' } } },
    errors: ['resource_not_found'],
  },
  getGeneration: {
    tag: 'Generations',
    summary: 'Get a generation',
    responses: { 200: { description: 'The generation, with signed URLs to its outputs.', body: generation } },
  },
  cancelGeneration: {
    tag: 'Generations',
    summary: 'Cancel a generation',
    description: 'Asks the provider to stop and refunds the whole reservation. Also needs the write scope of the generation’s modality.',
    responses: {
      200: { description: 'Cancelled and refunded.', body: generation },
      202: { description: 'The cancel is under way; poll the generation.', body: generation },
    },
    errors: ['generation_not_cancelable'],
  },
  deleteGenerationOutputs: {
    tag: 'Generations',
    summary: "Delete a generation's output files",
    description:
      'Deletes the files of a finished generation at once, as its retention would at `expires_at`. The generation record, its charge and its ledger stay; its outputs stay listed with `deleted_at` and their URLs answer 410 `output_expired`. Idempotent: a second call finds nothing left and answers the same. Also needs the write scope of the generation’s modality.',
    responses: { 200: { description: 'The generation, its outputs marked deleted.', body: generation } },
    errors: ['generation_not_finished'],
  },

  createComparison: {
    tag: 'Comparisons',
    summary: 'Compare models on one prompt',
    description:
      'Sends one prompt to 2 to 12 models of one modality, each as its own generation, and answers 202. Needs the write scope of that modality; each child is reserved and settled on its own.',
    body: withRetention(withMaxCredits(COMPARISON_REQUEST_SCHEMA)),
    bodyRequired: true,
    responses: { 202: { description: 'Accepted: the comparison and its child generations.', body: { component: 'Comparison' } } },
    errors: CREATION_ERRORS,
    links: {
      202: {
        getComparison: { operationId: 'getComparison', parameters: { id: '$response.body#/id' }, description: 'Poll until the verdict.' },
        cancelComparison: { operationId: 'cancelComparison', parameters: { id: '$response.body#/id' }, description: 'Cancel the children still running.' },
      },
    },
  },
  createQuote: {
    tag: 'Generations',
    summary: 'Quote a creation request',
    description:
      'A dry run: runs every check the creation endpoint named by `endpoint` would run on `body` (the key’s role and scope for that endpoint, `retention`, validation, plan and Studio+ gates, model limits, input files, the quote request’s own `Cancel-After`, `max_credits`, the key’s monthly budget) and answers the exact reservation it would make, per generation, with the pricing inputs. Reserves nothing and creates nothing. A wallet that does not cover it is not an error: `affordable` says so.',
    body: parseQuoteRequest.schema,
    bodyRequired: true,
    responses: { 200: { description: 'The quote.', body: { component: 'Quote' } } },
    errors: [...CREATION_ERRORS.filter((code) => code !== 'insufficient_credits'), 'organization_paused'],
  },
  listComparisons: {
    tag: 'Comparisons',
    summary: 'List comparisons',
    query: parseListQuery.schema,
    responses: { 200: { description: 'A page of comparisons, newest first.', body: { component: 'ComparisonList' } } },
    errors: ['resource_not_found'],
  },
  getComparison: {
    tag: 'Comparisons',
    summary: 'Get a comparison',
    responses: { 200: { description: 'The comparison with its children.', body: { component: 'Comparison' } } },
  },
  cancelComparison: {
    tag: 'Comparisons',
    summary: 'Cancel a comparison',
    description: 'Cancels every child still running (each refunded).',
    responses: {
      200: { description: 'Cancelled: every child is terminal.', body: { component: 'Comparison' } },
      202: { description: 'The cancel is under way.', body: { component: 'Comparison' } },
    },
    errors: ['comparison_not_cancelable'],
  },

  listModels: {
    tag: 'Models',
    summary: 'List models',
    description: 'The catalog: every model with its modality, tier, capabilities, limits and price.',
    query: parseModelsQuery.schema,
    responses: { 200: { description: 'Every model matching the filters.', body: { component: 'ModelList' } } },
  },
  createUpload: {
    tag: 'Uploads',
    summary: 'Create an upload',
    description: 'Answers a signed URL to PUT an input file to, and the `file_url` to pass as `image_url` and the like.',
    body: parseCreateUpload.schema,
    bodyRequired: true,
    responses: { 201: { description: 'The upload and where to PUT its bytes.', body: { component: 'Upload' } } },
  },
} satisfies Record<string, OperationDoc>;
