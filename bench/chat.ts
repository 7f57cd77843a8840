import os from 'node:os';
import { createKnex } from '../db/knex';
import { startBenchStack } from './lib/embedded-stack';
import { startFakeUpstream } from './lib/fake-upstream';
import { getJson, postJson, requestJson } from './lib/http-client';
import { newTally, postgresCommits, tallyTable, type Tally } from './lib/cost-tally';
import { runBench } from './lib/run-bench';
import { ms, percentile, runLoad } from './lib/stats';
import { startBenchWorker } from './lib/worker-process';

// npm run bench:chat — what the gateway adds to a chat completion. POST /v1/chat with
// llama-3.3-70b (first route: openai_compatible) through the OpenAI-compatible adapter to a fake
// upstream in its own process that answers at once (test/fakes/openai-server.ts), against POSTing
// the same completion to the fake's /chat/completions directly, at concurrency 1 and 8. The API
// waits for the sync result, so a chat request is timed end to end: auth, validation, admission
// (Update-with-Start, the reservation), the provider call as a local activity, the capture and the
// answer. The API runs in this process, the worker in its own (PROVIDER_MODE=live,
// OPENAI_COMPATIBLE_BASE_URL, OPENAI_COMPATIBLE_API_KEY). Five interleaved rounds per
// concurrency, each side first in turn; the percentiles pool every round.
// BENCH_SCALE multiplies the request counts.

const scale = Number(process.env.BENCH_SCALE ?? 1);
const ROUNDS = 5;
const MODEL = 'llama-3.3-70b';
/** The catalog's route model of llama-3.3-70b: what the adapter sends upstream. */
const UPSTREAM_MODEL = 'meta-llama/Llama-3.3-70B-Instruct-Turbo';
const MESSAGES = [{ role: 'user', content: 'Name three colours of the sea at dawn.' }];
const MAX_TOKENS = 64;

async function main() {
  const upstream = await startFakeUpstream('test/fakes/openai-server.ts');
  const stack = await startBenchStack(
    {
      providerMode: 'live',
      providerCredentials: { openai_compatible: { apiKey: upstream.apiKey, baseUrl: upstream.baseUrl } },
      providerBaseUrls: { openai_compatible: upstream.baseUrl },
    },
    { inProcessWorker: false },
  );
  const worker = await startBenchWorker(stack.config, stack.dir, {
    PROVIDER_MODE: 'live',
    OPENAI_COMPATIBLE_BASE_URL: upstream.baseUrl,
    OPENAI_COMPATIBLE_API_KEY: upstream.apiKey,
  });
  const knex = createKnex(stack.config.databaseUrl!);
  try {
    await worker.measuring(async () => {
      const admin = { Authorization: 'Bearer adm_bench' };
      const org = JSON.parse((await postJson(`${stack.apiUrl}/admin/v1/organizations`, admin, { name: 'chat bench', plan: 'pro', credits: 100_000_000 })).body);
      // The load is far above RATE_LIMIT_PER_MINUTE: lift this organization's limit, as an operator would.
      await requestJson('PATCH', `${stack.apiUrl}/admin/v1/organizations/${org.id}`, admin, { rate_limit_per_minute: 1_000_000 });
      const key = { Authorization: `Bearer ${org.api_keys.find((k: { environment: string }) => k.environment === 'live').secret}` };

      const viaGateway = async () => {
        const res = await postJson(`${stack.apiUrl}/v1/chat`, key, { model: MODEL, messages: MESSAGES, max_tokens: MAX_TOKENS });
        return res.status === 200 && typeof JSON.parse(res.body).message?.content === 'string';
      };
      const direct = async () => {
        const res = await postJson(
          `${upstream.baseUrl}/chat/completions`,
          { Authorization: `Bearer ${upstream.apiKey}` },
          { model: UPSTREAM_MODEL, messages: MESSAGES, max_tokens: MAX_TOKENS },
        );
        return res.status === 200;
      };
      // The chat answer does not name its provider; its Generation does.
      const first = JSON.parse((await postJson(`${stack.apiUrl}/v1/chat`, key, { model: MODEL, messages: MESSAGES, max_tokens: MAX_TOKENS })).body);
      const served = JSON.parse((await getJson(`${stack.apiUrl}/v1/generations/${first.id}`, key)).body);
      if (served.provider !== 'openai_compatible') throw new Error(`POST /v1/chat did not go through the OpenAI-compatible adapter: ${JSON.stringify(served)}`);

      process.stderr.write('[bench] warming up\n');
      await runLoad(Math.max(10, Math.round(40 * scale)), 4, viaGateway);
      await runLoad(Math.max(10, Math.round(40 * scale)), 4, direct);

      const results: { concurrency: number; gateway: Side; direct: Side; spent: Tally }[] = [];
      for (const concurrency of [1, 8]) {
        const perRound = Math.max(10, Math.round((concurrency === 1 ? 40 : 160) * scale));
        process.stderr.write(`[bench] c=${concurrency}: ${ROUNDS} rounds of ${perRound} requests each way\n`);
        const gatewaySide = newSide();
        const directSide = newSide();
        const spent = newTally(postgresCommits(knex));
        const gatewayRound = async () => gatewaySide.add(await spent.during(() => runLoad(perRound, concurrency, viaGateway)));
        const directRound = async () => directSide.add(await runLoad(perRound, concurrency, direct));
        // Interleaved, each side first in turn, so a drift in the machine's speed moves both alike.
        for (let round = 0; round < ROUNDS; round++) {
          if (round % 2 === 0) await gatewayRound().then(directRound);
          else await directRound().then(gatewayRound);
        }
        results.push({ concurrency, gateway: gatewaySide, direct: directSide, spent });
      }

      const line = (name: string, side: Side, concurrency: number) =>
        `  ${name.padEnd(42)} c=${concurrency}  n=${side.latencies.length}  p50 ${ms(side.p(0.5))}  p99 ${ms(side.p(0.99))}  ${side.perSecond().toFixed(1)} req/s  errors ${side.errors}`;
      console.log(
        [
          '',
          `bench:chat (embedded stack on the ${stack.temporalLabel}; API live, worker in its own process, ${MODEL} via openai_compatible; the fake upstream in its own process answers at once; ${os.cpus().length} cores)`,
          '',
          ...results.flatMap((r) => [
            line('POST /v1/chat', r.gateway, r.concurrency),
            line('POST {upstream}/chat/completions directly', r.direct, r.concurrency),
            `  added by the gateway at c=${r.concurrency}: p50 +${ms(r.gateway.p(0.5) - r.direct.p(0.5))}, p99 +${ms(r.gateway.p(0.99) - r.direct.p(0.99))}`,
            '',
          ]),
          'CPU per POST /v1/chat, by process:',
          tallyTable(results.map((r) => [`c=${r.concurrency}`, r.spent, r.gateway.latencies.length + r.gateway.errors])),
          '',
        ].join('\n'),
      );
    });
  } finally {
    await knex.destroy();
    await worker.stop();
    await stack.stop();
    await upstream.stop();
  }
}

/** One side's latencies pooled over its rounds. */
interface Side {
  latencies: number[];
  errors: number;
  add(load: { latenciesMs: number[]; wallMs: number; errors: number }): void;
  p(quantile: number): number;
  perSecond(): number;
}

function newSide(): Side {
  let wallMs = 0;
  const side: Side = {
    latencies: [],
    errors: 0,
    add(load) {
      side.latencies.push(...load.latenciesMs);
      side.errors += load.errors;
      wallMs += load.wallMs;
    },
    p: (quantile) =>
      percentile(
        [...side.latencies].sort((a, b) => a - b),
        quantile,
      ),
    perSecond: () => (side.latencies.length / wallMs) * 1000,
  };
  return side;
}

runBench(main);
