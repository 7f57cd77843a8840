// How many frames a stack trace keeps inside the workflow sandbox. The bundler's preloadModules
// (worker/bundle-workflows.ts) loads this once, before the SDK freezes the sandbox's globals, so it
// holds for every workflow and no workflow can change it.
//
// The SDK records a stack trace for every promise workflow code creates and maps each frame
// through the bundle's source map (for the stack-trace query; sdk-typescript issue #1587), and has
// no option to turn that off. The cost grows with the frames kept: three instead of V8's default
// ten take a measurable share off the CPU per replayed generation (see docs/benchmarks.md,
// bench:replay). Three frames
// still show where a workflow error was thrown, and where each pending promise of a stuck workflow
// waits (the stack-trace query; test/workflows/stack-traces.test.ts).
Error.stackTraceLimit = 3;

export {};
