import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../../embedded/temporal-cli';
import { TEMPORAL_DB_NAME, TEMPORAL_DB_USER, TEMPORAL_VISIBILITY_DB_NAME } from '../../embedded/temporal-databases';
import { TEMPORAL_CONFIG_DIR, temporalServerEnv, type TemporalServerPorts } from '../../embedded/temporal-prod-server';
import { TEMPORAL_SERVER_VERSION, TEMPORAL_UI_SERVER_VERSION } from '../../embedded/temporal-server-binaries';
import { loadConfig } from '../../config';
import { SEARCH_ATTRIBUTE_SPECS } from '../../domain/search-attributes';
import { loadComposeFile, MissingVariableError, parseVolume, type ComposeFile, type ComposeService } from '../helpers/compose-file';
import { DATASOURCES_FILE, OPS_DIR, PROMETHEUS_CONFIG_FILE } from '../helpers/ops-files';
import { envTemplateActions, renderEnvTemplate } from '../helpers/env-template';

// docker-compose.yml cannot run on this machine (no Docker), so it is held to the production mode
// that does run here (`npm run stack:prod`, tested by `npm run test:prod`): the same Temporal server
// version, configuration file and database names, on supported images.

/** The secrets the file requires, as an operator's .env gives them. */
const SECRETS = {
  POSTGRES_PASSWORD: 'pg-secret',
  TEMPORAL_DB_PASSWORD: 'temporal-secret',
  S3_ACCESS_KEY_ID: 's3-key',
  S3_SECRET_ACCESS_KEY: 's3-secret',
  ADMIN_TOKEN: 'admin-secret',
  URL_SIGNING_SECRET: 'signing-secret',
  GRAFANA_ADMIN_PASSWORD: 'grafana-secret',
};

/** What the temporal service's entrypoint exports from `getent hosts`: the container's address. */
const CONTAINER_ADDRESS = '172.18.0.7';

const compose = (): ComposeFile => loadComposeFile(SECRETS);

function service(file: ComposeFile, name: string): ComposeService {
  const found = file.services[name];
  assert.ok(found, `docker-compose.yml has no ${name} service`);
  return found;
}

function imageTag(image: string | undefined): { repository: string; tag: string } {
  const match = /^([^:@]+):([^:@]+)$/.exec(image ?? '');
  assert.ok(match, `image "${image}" is not repository:tag`);
  return { repository: match[1]!, tag: match[2]! };
}

/** The `temporal-server` command line of the temporal service (its `sh -c` script's exec). */
function serverArguments(temporal: ComposeService): string[] {
  const script = [...(temporal.entrypoint ?? []), ...(temporal.command ?? [])].join(' ');
  const exec = /\bexec temporal-server (.+)$/.exec(script);
  assert.ok(exec, `the temporal service does not exec temporal-server: ${script}`);
  return exec[1]!.trim().split(/\s+/);
}

function flag(args: string[], name: string): string {
  const at = args.indexOf(name);
  assert.ok(at >= 0 && at + 1 < args.length, `temporal-server is started without ${name}`);
  return args[at + 1]!;
}

/** The repository's config/temporal, where the temporal service mounts it, and the paths it starts with. */
function serverConfigMount(temporal: ComposeService) {
  const mounts = (temporal.volumes ?? []).map(parseVolume);
  const config = mounts.find((mount) => mount.source === `./${TEMPORAL_CONFIG_DIR.split(path.sep).join('/')}`);
  assert.ok(config, `the temporal service does not mount ./${TEMPORAL_CONFIG_DIR}`);
  /** The file on this machine that a path inside the container is. */
  const onHost = (containerPath: string) => {
    const relative = path.posix.relative(config.target, containerPath);
    assert.ok(!relative.startsWith('..') && !path.posix.isAbsolute(relative), `${containerPath} is outside the mounted ${config.target}`);
    return path.join(PROJECT_ROOT, TEMPORAL_CONFIG_DIR, ...relative.split('/'));
  };
  return { ...config, onHost };
}

const TEMPLATE = readFileSync(path.join(PROJECT_ROOT, TEMPORAL_CONFIG_DIR, 'production.yaml'), 'utf8');

/** The server configuration the temporal service renders. */
function composeServerConfig(temporal: ComposeService): Record<string, any> {
  return parse(renderEnvTemplate(TEMPLATE, { ...temporal.environment, TEMPORAL_BROADCAST_ADDRESS: CONTAINER_ADDRESS }));
}

/** The server configuration `npm run stack:prod` renders, on made-up ports. */
function prodModeServerConfig(): Record<string, any> {
  const ports: TemporalServerPorts = {
    frontend: 41001,
    frontendMembership: 41002,
    frontendHttp: 41003,
    history: 41004,
    historyMembership: 41005,
    matching: 41006,
    matchingMembership: 41007,
    worker: 41008,
    workerMembership: 41009,
    metrics: 41010,
  };
  return parse(renderEnvTemplate(TEMPLATE, temporalServerEnv(ports, { host: '127.0.0.1', port: 45432 })));
}

describe('docker-compose.yml against the production mode', () => {
  it('runs the Temporal server version the production mode builds, never the deprecated auto-setup image', () => {
    const file = compose();
    assert.equal(service(file, 'temporal').image, `temporalio/server:${TEMPORAL_SERVER_VERSION.replace(/^v/, '')}`);
    for (const [name, { image }] of Object.entries(file.services)) {
      assert.doesNotMatch(image ?? '', /temporalio\/auto-setup/, `${name} uses temporalio/auto-setup`);
    }
  });

  it('pins every image it pulls to a version', () => {
    for (const [name, { image, build }] of Object.entries(compose().services)) {
      if (build !== undefined) continue; // built here from the Dockerfile
      const { tag } = imageTag(image);
      assert.notEqual(tag, 'latest', `${name} runs ${image}`);
      assert.match(tag, /\d/, `${name} runs ${image}, which names no version`);
    }
  });

  it('migrates the schema and registers the namespace with admin tools of the server version', () => {
    const file = compose();
    const server = TEMPORAL_SERVER_VERSION.replace(/^v/, '');
    for (const name of ['temporal-admin-tools', 'temporal-create-namespace']) {
      const { repository, tag } = imageTag(service(file, name).image);
      assert.equal(repository, 'temporalio/admin-tools');
      // Tags are <server version>-tctl-<version>-cli-<version>.
      assert.ok(tag === server || tag.startsWith(`${server}-`), `${name} runs admin-tools ${tag} for server ${server}`);
    }
  });

  it('serves the Temporal UI version the production mode builds', () => {
    assert.equal(service(compose(), 'temporal-ui').image, `temporalio/ui:${TEMPORAL_UI_SERVER_VERSION.replace(/^v/, '')}`);
  });

  it('starts the server with the configuration file the production mode starts it with', () => {
    const temporal = service(compose(), 'temporal');
    const mount = serverConfigMount(temporal);
    assert.ok(mount.readOnly, 'config/temporal is mounted writable');
    const args = serverArguments(temporal);
    assert.equal(args.at(-1), 'start');
    const environment = flag(args, '--env');
    assert.equal(environment, 'production');
    assert.ok(args.includes('--allow-no-auth'), 'the production mode starts the server with --allow-no-auth');
    const configDir = path.posix.join(flag(args, '--root'), flag(args, '--config'));
    assert.equal(configDir, mount.target);
    const configFile = mount.onHost(path.posix.join(configDir, `${environment}.yaml`));
    assert.equal(configFile, path.join(PROJECT_ROOT, TEMPORAL_CONFIG_DIR, 'production.yaml'));
    assert.ok(existsSync(configFile));
  });

  it('points the server at the dynamic config file the production mode uses, as mounted', () => {
    const temporal = service(compose(), 'temporal');
    const mount = serverConfigMount(temporal);
    const dynamicConfig = temporal.environment?.TEMPORAL_DYNAMIC_CONFIG;
    assert.ok(dynamicConfig, 'TEMPORAL_DYNAMIC_CONFIG is not set');
    assert.equal(composeServerConfig(temporal).dynamicConfigClient.filepath, dynamicConfig);
    // The production mode leaves the template's default, relative to the server's directory: the repository.
    const prodMode = prodModeServerConfig().dynamicConfigClient.filepath as string;
    assert.equal(mount.onHost(dynamicConfig), path.resolve(PROJECT_ROOT, prodMode));
    assert.ok(existsSync(mount.onHost(dynamicConfig)));
  });

  it('sets every variable the server configuration reads without a default', () => {
    const temporal = service(compose(), 'temporal');
    const actions = envTemplateActions(TEMPLATE);
    assert.ok(actions.length > 0, 'the template reads no variable');
    const required = new Set(actions.filter((action) => action.fallback === undefined).map((action) => action.variable));
    // Exported by the entrypoint script itself, from the container's address.
    const fromEntrypoint = new Set(['TEMPORAL_BROADCAST_ADDRESS']);
    for (const variable of required) {
      if (fromEntrypoint.has(variable)) continue;
      assert.ok(temporal.environment?.[variable], `the temporal service does not set ${variable}`);
    }
    const script = [...(temporal.entrypoint ?? []), ...(temporal.command ?? [])].join(' ');
    assert.match(script, /export TEMPORAL_BROADCAST_ADDRESS\b/);
  });

  it('renders the server configuration with the database at postgres and the frontend on every interface', () => {
    const config = composeServerConfig(service(compose(), 'temporal'));
    const stores = config.persistence.datastores;
    const main = stores[config.persistence.defaultStore].sql;
    const visibility = stores[config.persistence.visibilityStore].sql;
    for (const store of [main, visibility]) {
      assert.equal(store.pluginName, 'postgres12');
      assert.equal(store.connectAddr, 'postgres:5432');
      assert.equal(store.user, TEMPORAL_DB_USER);
      assert.equal(store.password, SECRETS.TEMPORAL_DB_PASSWORD);
    }
    assert.equal(main.databaseName, TEMPORAL_DB_NAME);
    assert.equal(visibility.databaseName, TEMPORAL_VISIBILITY_DB_NAME);
    for (const role of ['frontend', 'history', 'matching', 'worker']) assert.equal(config.services[role].rpc.bindOnIP, '0.0.0.0');
    assert.equal(config.global.membership.broadcastAddress, CONTAINER_ADDRESS);
    assert.equal(config.clusterMetadata.clusterInformation.active.rpcAddress, `${CONTAINER_ADDRESS}:7233`);
    assert.equal(config.services.frontend.rpc.grpcPort, 7233);
  });

  it('renders the same server configuration as the production mode, addresses and secrets aside', () => {
    const strip = (config: Record<string, any>) => {
      const copy = structuredClone(config);
      for (const store of Object.values<any>(copy.persistence.datastores)) {
        delete store.sql.connectAddr;
        delete store.sql.password;
      }
      delete copy.global.membership.broadcastAddress;
      delete copy.global.metrics.prometheus.listenAddress;
      for (const role of Object.values<any>(copy.services)) delete role.rpc;
      delete copy.clusterMetadata.clusterInformation.active.rpcAddress;
      delete copy.dynamicConfigClient.filepath; // the same file: see above
      return copy;
    };
    const composed = composeServerConfig(service(compose(), 'temporal'));
    const prodMode = prodModeServerConfig();
    // History shards can never change once a database exists: both must have the same count.
    assert.equal(composed.persistence.numHistoryShards, prodMode.persistence.numHistoryShards);
    assert.deepEqual(strip(composed), strip(prodMode));
  });

  it("creates Temporal's databases where and under the names the server reads them", () => {
    const file = compose();
    const admin = service(file, 'temporal-admin-tools');
    const server = service(file, 'temporal').environment!;
    for (const variable of Object.keys(server).filter((name) => name.startsWith('TEMPORAL_DB_') || name === 'TEMPORAL_VISIBILITY_DB_NAME')) {
      assert.equal(admin.environment?.[variable], server[variable], `${variable} differs between the schema job and the server`);
    }
    assert.equal(server.TEMPORAL_DB_NAME, TEMPORAL_DB_NAME);
    assert.equal(server.TEMPORAL_VISIBILITY_DB_NAME, TEMPORAL_VISIBILITY_DB_NAME);
    assert.equal(service(file, 'temporal').depends_on?.['temporal-admin-tools']?.condition, 'service_completed_successfully');
    assertRunsScript(admin, 'setup-databases.sh');
  });

  it('starts the API and the workers only once the namespace they use is served', () => {
    const file = compose();
    const registrar = service(file, 'temporal-create-namespace');
    assertRunsScript(registrar, 'create-namespace.sh');
    assert.equal(registrar.depends_on?.temporal?.condition, 'service_healthy');
    for (const name of ['api', 'worker']) {
      const app = service(file, name);
      assert.equal(app.environment?.TEMPORAL_NAMESPACE, registrar.environment?.TEMPORAL_NAMESPACE);
      assert.equal(app.depends_on?.['temporal-create-namespace']?.condition, 'service_completed_successfully', name);
    }
  });

  it("registers the service's search attributes, the same list the dev server and the production mode register", () => {
    const registrar = service(compose(), 'temporal-create-namespace');
    assert.deepEqual((registrar.environment?.TEMPORAL_SEARCH_ATTRIBUTES ?? '').split(/\s+/).filter(Boolean), [...SEARCH_ATTRIBUTE_SPECS]);
  });

  it('runs two API processes behind one port and two workers, as the production mode does', () => {
    const file = compose();
    assert.equal(service(file, 'api').deploy?.replicas, 2);
    assert.equal(service(file, 'worker').deploy?.replicas, 2);
    assert.equal(service(file, 'api').ports, undefined, 'API replicas would clash on a published port');
    assert.deepEqual(service(file, 'api-proxy').ports, ['8080:8080']);
    assert.match(file.configs?.['api-proxy-caddyfile']?.content ?? '', /dynamic a \{\s*name api\s*port 8080/);
  });

  it('keeps outputs in the S3 bucket it creates, at a host name the containers and the clients share', () => {
    const file = compose();
    const s3 = service(file, 's3');
    const bucketJob = service(file, 's3-bucket');
    for (const name of ['api', 'worker']) {
      const app = service(file, name);
      assert.equal(app.volumes, undefined, `${name} shares a volume: outputs belong in S3`);
      assert.equal(app.depends_on?.['s3-bucket']?.condition, 'service_completed_successfully', name);
      // Parsed by the service's own configuration loader.
      const config = loadConfig(app.environment);
      assert.equal(config.storage, 's3');
      assert.equal(config.s3Bucket, bucketJob.environment?.S3_BUCKET);
      assert.ok(config.s3ForcePathStyle, 'path-style requests: a bucket subdomain of the S3 host resolves nowhere');
      assert.equal(config.s3AccessKeyId, s3.environment?.AWS_ACCESS_KEY_ID);
      assert.equal(config.s3SecretAccessKey, s3.environment?.AWS_SECRET_ACCESS_KEY);
      const endpoint = new URL(config.s3Endpoint!);
      assert.ok(s3.networks?.default?.aliases?.includes(endpoint.hostname), `${endpoint.hostname} is not an alias of the s3 service`);
      assert.ok(s3.ports?.includes(`127.0.0.1:${endpoint.port}:${endpoint.port}`), `port ${endpoint.port} of the s3 service is not published`);
    }
  });

  it('runs live keys in live mode unless the operator sets PROVIDER_MODE, as the image does (issue 33)', () => {
    for (const name of ['api', 'worker']) {
      assert.equal(service(compose(), name).environment?.PROVIDER_MODE, 'live', name);
      assert.equal(loadConfig(service(compose(), name).environment).providerMode, 'live', name);
      const demo = loadComposeFile({ ...SECRETS, PROVIDER_MODE: 'simulated' });
      assert.equal(loadConfig(service(demo, name).environment).providerMode, 'simulated', name);
    }
    // The image's own environment, under whatever command it runs.
    const dockerfile = readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
    const env = [...dockerfile.matchAll(/^ENV\s+((?:.*\\\n)*.*)$/gm)].map((m) => m[1]!.replace(/\\\n/g, ' ')).join(' ');
    assert.match(env, /(^|\s)PROVIDER_MODE=live(\s|$)/);
  });

  it('refuses to run without each of its secrets', () => {
    for (const secret of Object.keys(SECRETS)) {
      const { [secret as keyof typeof SECRETS]: _, ...others } = SECRETS;
      assert.throws(
        () => loadComposeFile(others),
        (err: unknown) => err instanceof MissingVariableError && err.message.startsWith(`${secret}:`),
      );
    }
  });
});

/** The metrics listeners of the API and worker processes at their defaults (API_METRICS_PORT, WORKER_METRICS_PORT). */
const METRICS_PORTS = { api: 9464, worker: 9465 };

/** The file or folder of this repository a service mounts at `target`. */
function mountedFrom(app: ComposeService, target: string): string {
  const mount = (app.volumes ?? []).map(parseVolume).find((volume) => volume.target === target);
  assert.ok(mount, `nothing is mounted at ${target}`);
  assert.ok(mount.source.startsWith('./'), `${target} is mounted from ${mount.source}, not from the repository`);
  assert.ok(mount.readOnly, `${mount.source} is mounted writable`);
  return path.join(PROJECT_ROOT, ...mount.source.slice(2).split('/'));
}

describe('docker-compose.yml’s Prometheus and Grafana', () => {
  it('mounts only files and folders of the repository that exist', () => {
    for (const [name, app] of Object.entries(compose().services)) {
      for (const { source } of (app.volumes ?? []).map(parseVolume)) {
        if (!source.startsWith('./')) continue; // a named volume
        assert.ok(existsSync(path.join(PROJECT_ROOT, source)), `${name} mounts ${source}, which does not exist`);
      }
    }
  });

  it('runs Prometheus with ops/prometheus: its configuration and every rule file it names', () => {
    const prometheus = service(compose(), 'prometheus');
    const configFlag = (prometheus.command ?? []).find((arg) => arg.startsWith('--config.file='));
    assert.ok(configFlag, 'prometheus is started without --config.file');
    const configPath = configFlag.slice('--config.file='.length);
    assert.equal(mountedFrom(prometheus, configPath), PROMETHEUS_CONFIG_FILE);
    const config = parse(readFileSync(PROMETHEUS_CONFIG_FILE, 'utf8')) as { rule_files: string[] };
    assert.ok(config.rule_files.length > 0, 'no rule files');
    for (const ruleFile of config.rule_files) {
      // Relative rule files are read from the configuration file's folder.
      const inContainer = path.posix.resolve(path.posix.dirname(configPath), ruleFile);
      assert.equal(mountedFrom(prometheus, inContainer), path.resolve(path.dirname(PROMETHEUS_CONFIG_FILE), ruleFile));
    }
    assert.deepEqual(prometheus.ports, ['127.0.0.1:9090:9090']);
  });

  it('scrapes every API and worker replica through Docker DNS on their metrics ports, and the Temporal server on the one it renders', () => {
    const file = compose();
    const config = parse(readFileSync(PROMETHEUS_CONFIG_FILE, 'utf8')) as {
      scrape_configs: { job_name: string; dns_sd_configs?: { names: string[]; type: string; port: number }[]; static_configs?: { targets: string[] }[] }[];
    };
    for (const [name, port] of Object.entries(METRICS_PORTS)) {
      service(file, name);
      const jobs = config.scrape_configs.filter((job) => job.dns_sd_configs?.some((sd) => sd.names.includes(name)));
      assert.equal(jobs.length, 1, `${jobs.length} scrape jobs find ${name} replicas`);
      assert.deepEqual(jobs[0]!.dns_sd_configs, [{ names: [name], type: 'A', port, refresh_interval: '15s' }]);
    }
    const listen = composeServerConfig(service(file, 'temporal')).global.metrics.prometheus.listenAddress as string;
    const [host, port] = listen.split(':');
    assert.equal(host, '0.0.0.0', 'the Temporal server serves its metrics on the container’s loopback only');
    const targets = config.scrape_configs.flatMap((job) => job.static_configs ?? []).flatMap((entry) => entry.targets);
    assert.ok(targets.includes(`temporal:${port}`), `no scrape job reads the Temporal server's metrics at temporal:${port}`);
  });

  it('provisions Grafana with that Prometheus and the dashboards of ops/grafana, local only, its admin password required', () => {
    const file = compose();
    const grafana = service(file, 'grafana');
    assert.equal(mountedFrom(grafana, '/etc/grafana/provisioning/datasources'), path.dirname(DATASOURCES_FILE));
    const datasources = parse(readFileSync(DATASOURCES_FILE, 'utf8')) as { datasources: { type: string; url: string }[] };
    const prometheusPort = service(file, 'prometheus').ports![0]!.split(':').at(-1);
    assert.deepEqual(
      datasources.datasources.map((source) => [source.type, source.url]),
      [['prometheus', `http://prometheus:${prometheusPort}`]],
    );
    const providersFolder = mountedFrom(grafana, '/etc/grafana/provisioning/dashboards');
    assert.equal(providersFolder, path.join(OPS_DIR, 'grafana', 'provisioning', 'dashboards'));
    const providers = parse(readFileSync(path.join(providersFolder, 'generation-service.yml'), 'utf8')) as { providers: { options: { path: string } }[] };
    const dashboardsPath = providers.providers[0]!.options.path;
    assert.equal(mountedFrom(grafana, dashboardsPath), path.join(OPS_DIR, 'grafana', 'dashboards'));
    const home = grafana.environment?.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH ?? '';
    assert.equal(path.posix.dirname(home), dashboardsPath);
    assert.ok(existsSync(path.join(OPS_DIR, 'grafana', 'dashboards', path.posix.basename(home))), `the home dashboard ${home} is no file of ops/grafana/dashboards`);
    assert.equal(grafana.environment?.GF_SECURITY_ADMIN_PASSWORD, SECRETS.GRAFANA_ADMIN_PASSWORD);
    assert.equal(grafana.environment?.GF_AUTH_ANONYMOUS_ORG_ROLE, 'Viewer');
    assert.deepEqual(grafana.ports, ['127.0.0.1:3000:3000']);
  });
});

function assertRunsScript(job: ComposeService, script: string): void {
  const mount = (job.volumes ?? []).map(parseVolume).find((volume) => volume.source === './docker/temporal-admin-tools');
  assert.ok(mount?.readOnly, 'the admin-tools scripts are not mounted read-only');
  assert.deepEqual(job.entrypoint, ['/bin/bash', path.posix.join(mount.target, script)]);
  assert.ok(existsSync(path.join(PROJECT_ROOT, 'docker', 'temporal-admin-tools', script)));
}
