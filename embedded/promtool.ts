import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { goInstall, onPath } from './go-install';
import { TOOLS_BIN } from './temporal-cli';

// promtool, Prometheus' checker for configuration and rule files and the runner of rule unit
// tests, which test/ops/ uses on ops/prometheus/ (docs/operations.md, "Dashboards and alerts").
// Prometheus publishes no npm package, so this builds the pinned release from its Go module into
// .tools/bin on first use, as embedded/temporal-cli.ts does for the Temporal CLI, and reuses it
// after; `npm run promtool:install` runs it on its own.
//
// Only the file and DNS service discoveries are compiled in (Prometheus' own build tags): the
// checks need DNS for compose's `dns_sd_configs`, and leaving out the cloud discoveries (Azure,
// GCE, Kubernetes, ...) takes most of the build away from a fresh machine.

/** Prometheus v3.16's Go module version; a binary built from another version is rebuilt. */
const PROMETHEUS_MODULE_VERSION = 'v0.316.0';
const PROMTOOL_MODULE = `github.com/prometheus/prometheus/cmd/promtool@${PROMETHEUS_MODULE_VERSION}`;
const BUILD_TAGS = ['remove_all_sd', 'enable_dns_sd'];

const PROMTOOL = path.join(TOOLS_BIN, 'promtool');

/** The Prometheus module version a Go binary was built from, as `go version -m` reads it. */
function builtFromVersion(binary: string): string | undefined {
  const info = spawnSync('go', ['version', '-m', binary], { encoding: 'utf8' });
  return /^\s*mod\s+github\.com\/prometheus\/prometheus\s+(\S+)/m.exec(info.stdout)?.[1];
}

/** The path of promtool at the pinned version, built first when it is absent or another version. */
export async function ensurePromtool(log: (line: string) => void = () => undefined): Promise<string> {
  const hasGo = onPath('go') !== undefined;
  if (existsSync(PROMTOOL) && (!hasGo || builtFromVersion(PROMTOOL) === PROMETHEUS_MODULE_VERSION)) return PROMTOOL;
  if (!hasGo) throw new Error(`promtool is not in ${TOOLS_BIN} and there is no Go to build it: install Go (https://go.dev/dl/) and run npm run promtool:install`);
  log(`building promtool with go install ${PROMTOOL_MODULE} (a few minutes the first time; Go caches it after)`);
  await goInstall(PROMTOOL_MODULE, TOOLS_BIN, { tags: BUILD_TAGS });
  return PROMTOOL;
}

if (require.main === module) {
  ensurePromtool((line) => console.log(line)).then(
    (promtool) => console.log(promtool),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
