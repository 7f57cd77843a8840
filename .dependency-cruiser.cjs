// The import direction of the house style (docs/architecture.md, "Import rules"), checked by
// `npm run lint:imports` as part of `npm test`. Paths are relative to the repository root.
//
// Two rules have a baseline: .dependency-cruiser-known-violations.json lists the violations that
// existed when the rule was written, and `--ignore-known` lets only those pass. The baseline is to
// burn down, never to grow: fix an entry, then regenerate the file with
// `npx depcruise-baseline --config .dependency-cruiser.cjs <the folders of lint:imports>`.
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
        pathNot: ['^workflows/', '^domain/', '^node_modules/@temporalio/workflow/'],
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
      to: { path: '^api/' },
    },
    {
      name: 'lib-imports-only-lib',
      severity: 'error',
      comment:
        'lib/ holds the generic helpers every floor uses (ids, logging, hashing, the SSRF guard); it ' +
        'knows no business rule and no configuration, so it imports only other lib/ files and packages.',
      from: { path: '^lib/' },
      to: { path: '^(config|domain|db|storage|activities|workflows|worker|api|embedded)/' },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'domain/ holds the rules every floor shares (pricing, plans, catalog, timeouts, the signature ' +
        'schemes). It is imported by workflows too, so it reads no configuration and does no I/O: it ' +
        'imports only domain/, lib/ and packages.',
      from: { path: '^domain/' },
      to: { path: '^(config|db|storage|activities|workflows|worker|api|embedded)/' },
    },
    {
      name: 'api-not-to-activities',
      severity: 'error',
      comment:
        'The API starts workflows; it never runs activity code in the request (the URL vetting belongs ' +
        'in lib/, the delivery start in a module both sides use). Today\'s violations are in the ' +
        'known-violations baseline, to burn down; a new one fails the check.',
      from: { path: '^api/' },
      to: { path: '^activities/' },
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
