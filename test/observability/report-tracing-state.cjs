// Preloaded into a service's child process (NODE_OPTIONS=--require) by test/observability/otlp-export.test.ts:
// when the process is told to stop (SIGTERM; preloaded, this listener runs before the service's own,
// which shuts tracing down), it reports on stderr how many OpenTelemetry SDK modules (anything but
// the tiny @opentelemetry/api) and Temporal interceptor modules it loaded, and whether a tracer
// provider is registered globally. A process without OTEL_EXPORTER_OTLP_ENDPOINT must report none.
const fs = require('node:fs');

process.on('SIGTERM', () => {
  const sdkModules = Object.keys(require.cache).filter((file) => /node_modules\/(@opentelemetry\/(?!api\/)|@temporalio\/interceptors-opentelemetry\/)/.test(file));
  const globals = globalThis[Symbol.for('opentelemetry.js.api.1')];
  const report = { sdkModules: sdkModules.length, tracerProviderRegistered: globals?.trace !== undefined };
  fs.writeSync(2, `tracing-state ${JSON.stringify(report)}\n`);
});
