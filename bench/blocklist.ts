/**
 * The blocklist suite (in-process, no server or database): building the published filter cascade
 * for BENCH_BLOCKLIST_VERSIONS signed versions (default 500,000) with BENCH_BLOCKLIST_BLOCKED of
 * them blocked (default 1%), against baselines measured in the same run:
 *
 * - time: one SHA-256 of every key (the least any filter over these keys costs: each key hashed once);
 * - size: the blocked keys as the JSON list a stash would carry (what publishing without a filter costs).
 *
 * Every run verifies the cascade (each blocked key in, each other signed key out) and a stash of
 * 1,000 changes planned against it. BENCH_BLOCKLIST_RUNS runs (default 3); medians.
 */
import { createHash } from 'node:crypto';
import { buildCascade, cascadeHas, cascadeStats, serializeCascade } from '../src/blocklist/mlbf/filter-cascade.js';
import { blocklistKey, planPublication } from '../src/blocklist/mlbf/publication.js';
import { fmt } from './lib.js';

export interface BlocklistSettings {
  versions: number;
  blockedShare: number;
  runs: number;
}

export interface BlocklistReport {
  versions: number;
  blocked: number;
  runs: number;
  hashAllMs: number;
  buildMs: number;
  bytes: number;
  layers: number;
  listBytes: number;
  stashPlanMs: number;
  heapMb: number;
  failures: string[];
}

export function blocklistSettings(): BlocklistSettings {
  return {
    versions: Number(process.env.BENCH_BLOCKLIST_VERSIONS ?? 500_000),
    blockedShare: Number(process.env.BENCH_BLOCKLIST_BLOCKED ?? 0.01),
    runs: Number(process.env.BENCH_BLOCKLIST_RUNS ?? 3),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Keys shaped like the catalogue's: a UUID-like or e-mail-like guid, several versions each. */
function signedKeys(count: number): string[] {
  const keys: string[] = [];
  for (let i = 0; keys.length < count; i++) {
    const guid =
      i % 3
        ? `{${i.toString(16).padStart(8, '0')}-4b1d-4c3a-9f00-${(i * 7919).toString(16).padStart(12, '0')}}`
        : `addon${i}@example.com`;
    for (let v = 0; v < 1 + (i % 5) && keys.length < count; v++)
      keys.push(blocklistKey(guid, `${1 + v}.${i % 10}.${v * 3}`));
  }
  return keys;
}

export async function runBlocklistSuite(options: {
  settings: BlocklistSettings;
  log: (line: string) => void;
}): Promise<BlocklistReport> {
  const { versions, blockedShare, runs } = options.settings;
  const keys = signedKeys(versions);
  const step = Math.max(1, Math.round(1 / blockedShare));
  const blocked = keys.filter((_, i) => i % step === 0);
  const blockedSet = new Set(blocked);
  const others = keys.filter((key) => !blockedSet.has(key));
  const failures: string[] = [];
  const hashAll: number[] = [];
  const builds: number[] = [];
  const plans: number[] = [];
  let bytes = 0;
  let layers = 0;
  options.log(`blocklist: ${versions} signed versions, ${blocked.length} blocked, ${runs} runs`);
  for (let run = 0; run < runs; run++) {
    let started = performance.now();
    for (const key of keys) createHash('sha256').update(key).digest();
    hashAll.push(performance.now() - started);

    started = performance.now();
    const cascade = buildCascade(blocked, others);
    const data = serializeCascade(cascade);
    builds.push(performance.now() - started);
    bytes = data.length;
    layers = cascadeStats(cascade).layers;

    const falseNegatives = blocked.filter((key) => !cascadeHas(cascade, key)).length;
    const falsePositives = others.filter((key) => cascadeHas(cascade, key)).length;
    if (falseNegatives || falsePositives) {
      failures.push(`run ${run}: ${falseNegatives} blocked keys out, ${falsePositives} other keys in`);
    }

    // A stash of 1,000 changes (500 unblocked, 500 newly blocked) against base filters of this state.
    const current = { hard: blockedSet, soft: new Set<string>() };
    const base = { hard: cascade, soft: buildCascade([], []) };
    const next = new Set([...blocked.slice(500), ...others.slice(0, 500)]);
    started = performance.now();
    const plan = planPublication({ hard: next, soft: new Set() }, keys, {
      blocked: current,
      signed: new Set(keys),
      base,
      stashedSinceBase: 0,
    });
    plans.push(performance.now() - started);
    if (plan.kind !== 'stash' || plan.stash.blocked.length + plan.stash.unblocked.length !== 1_000) {
      failures.push(`run ${run}: the stash of 1,000 changes came out as ${JSON.stringify(plan).slice(0, 200)}`);
    }
  }
  return {
    versions,
    blocked: blocked.length,
    runs,
    hashAllMs: median(hashAll),
    buildMs: median(builds),
    bytes,
    layers,
    listBytes: Buffer.byteLength(JSON.stringify(blocked)),
    stashPlanMs: median(plans),
    heapMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
    failures,
  };
}

export function printBlocklistReport(report: BlocklistReport): void {
  console.log(
    `\nblocklist filter cascade: ${report.versions} signed versions, ${report.blocked} blocked (medians of ${report.runs})`,
  );
  console.log(`  one SHA-256 per key (baseline)  ${fmt(report.hashAllMs)} ms`);
  console.log(
    `  cascade build + serialize       ${fmt(report.buildMs)} ms  (${fmt(report.buildMs / report.hashAllMs)}x the baseline)`,
  );
  console.log(
    `  cascade size                    ${report.bytes} bytes, ${report.layers} layers, ` +
      `${fmt((report.bytes * 8) / report.blocked)} bits per blocked key ` +
      `(${fmt(report.bytes / report.listBytes)}x the ${report.listBytes}-byte list of blocked keys)`,
  );
  console.log(
    `  stash of 1,000 changes planned  ${fmt(report.stashPlanMs)} ms  (${fmt(report.stashPlanMs / report.hashAllMs)}x the baseline)`,
  );
  console.log(`  process RSS                     ${report.heapMb} MB`);
}
