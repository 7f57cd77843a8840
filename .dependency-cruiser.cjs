// The import direction of the house style (docs/architecture.md, "Import rules"), checked by
// `npm run lint:imports` as part of `npm test`. Paths are relative to the repository root.
//
// There is no baseline of known violations: every rule holds for the whole tree, and a violation
// fails the check. (The last one, `api-not-to-activities`, was burnt down in issue 34.)
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'An import circle means two modules are really one, and the order their top-level code runs in ' +
        'depends on which one is imported first. Move the shared types or values one floor down into a ' +
        'module both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'workflows-only-deterministic-imports',
      severity: 'error',
      comment:
        'Workflow code runs in the Temporal sandbox and is replayed: it may import @temporalio/workflow, ' +
        'other workflows/ files and the pure domain/ modules. Anything else (activities, db, Node ' +
        'built-ins, I/O libraries) may only be imported with `import type`, which the bundle erases.',
      from: { path: '^workflows/' },
      to: {
        pathNot: ['^workflows/', '^domain/', '(^|/)node_modules/@temporalio/workflow/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'client-package-stands-alone',
      severity: 'error',
      comment:
        'clients/typescript is published on its own (@generation-service/client): its source may import ' +
        "only itself, Node built-ins and its own dependencies, never the service's modules, which a " +
        'consumer does not have. Re-implement what it needs (as webhook-verification.ts does).',
      from: { path: '^clients/typescript/src/' },
      to: { pathNot: ['^clients/typescript/src/', '(^|/)node_modules/openapi-fetch/'], dependencyTypesNot: ['core', 'type-only'] },
    },
    {
      name: 'dashboard-uses-the-public-api-only',
      severity: 'error',
      comment:
        'The dashboard (dashboard/) runs in a browser and may do only what an API key can: it talks to ' +
        'the service through the TypeScript client and imports, besides itself and its UI packages, only ' +
        'the pure domain rules and the route table (who may call what), never db, workflows or handlers.',
      from: { path: '^dashboard/' },
      to: {
        pathNot: ['^dashboard/', '^domain/', '^api/route-table\\.ts$', '^lib/ids\\.ts$', '^clients/typescript/src/', '(^|/)node_modules/(preact|uplot|openapi-fetch|vite)/'],
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'nothing-imports-api',
      severity: 'error',
      comment:
        'api/ is the top floor: the HTTP layer over the domain, db and workflows. Nothing below it may ' +
        'depend on it, or a change to a route could break a worker. Only api/ itself, its tests and the ' +
        'composition roots that start the server (embedded/) import it.',
      from: { pathNot: ['^api/', '^test/', '^embedded/'] },
      // The dashboard reads the route table (who may call what) to hide what a key may not do.
      to: { path: '^api/', pathNot: ['^api/route-table\\.ts$'] },
    },
    {
      name: 'lib-imports-only-lib',
      severity: 'error',
      comment:
        'lib/ holds the generic helpers every floor uses (ids, logging, hashing, the SSRF guard); it ' +
        'knows no business rule and no configuration, so it imports only other lib/ files and packages.',
      from: { path: '^lib/' },
      to: { path: '^(config|domain|db|storage|activities|workflows|workflow-starts|worker|api|embedded)/' },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'domain/ holds the rules every floor shares (pricing, plans, catalog, timeouts, the signature ' +
        'schemes). It is imported by workflows too, so it reads no configuration and does no I/O: it ' +
        'imports only domain/, lib/ and packages.',
      from: { path: '^domain/' },
      to: { path: '^(config|db|storage|activities|workflows|workflow-starts|worker|api|embedded)/' },
    },
    {
      name: 'api-not-to-activities',
      severity: 'error',
      comment:
        'The API starts workflows; it never runs activity code in the request, not even for a type. What ' +
        'both need lives one floor down: shared types in domain/, the URL vetting in lib/, the webhook ' +
        'settings in config/, the start of a webhook delivery in workflow-starts/.',
      from: { path: '^api/' },
      to: { path: '^activities/' },
    },
    {
      name: 'workflow-starts-below-api-and-activities',
      severity: 'error',
      comment:
        'workflow-starts/ holds the client-side workflow starts that the API and the worker share (a ' +
        'webhook delivery is started by a replay and by the relay). Both import it, so it imports neither ' +
        'activities/ nor worker/ (api/ is covered by nothing-imports-api): only workflows/ types, config/, ' +
        'db/, domain/, lib/ and packages.',
      from: { path: '^workflow-starts/' },
      to: { path: '^(activities|worker|embedded)/' },
    },
    {
      name: 'observability-below-its-users',
      severity: 'error',
      comment:
        'observability/ holds the metric catalog and the tracing set-up that the API, the activities and ' +
        'the worker all use. It records what they report, so it imports none of them: only domain/, lib/, ' +
        'config/ and packages. Workflows never import it (metrics and spans come from activities and ' +
        'interceptors, outside the deterministic sandbox).',
      from: { path: '^observability/' },
      to: { path: '^(db|storage|activities|workflows|workflow-starts|worker|api|embedded)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Count `import type` too: a type-only circle is still a circle, and the workflow rule needs to
    // see type-only imports to let them through.
    tsPreCompilationDeps: true,
  },
};
