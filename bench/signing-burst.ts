/**
 * What the signing suite adds around its upload scenarios (bench/signing.ts): the scanners kept on
 * in the measured path (YARA rules saved by an admin, checked to have run on a measured version),
 * the /healthz yardstick measured in the same run (the figures' ratios), and bursts of concurrent
 * uploads by one user (the per-user upload slots left at their default), with the issue's targets.
 */
import { performance } from 'node:perf_hooks';
import { percentile, runScenario, sleep } from './lib.js';

/** Issue 39's targets, and the /healthz rate of the machine they were set on (the ratios' scale). */
export const SIGNING_TARGETS = {
  sequentialP50Ms: 300,
  burstP95Ms: 1000,
  referenceHealthzPerSec: 1525,
} as const;

export interface HealthzFigures {
  reqPerSec: number;
  p50Ms: number;
  p95Ms: number;
}

/** /healthz at 10 connections for a few seconds (as the other suites measure it). */
export async function measureHealthz(base: string, serverPid: number, seconds = 3): Promise<HealthzFigures> {
  const result = await runScenario(base, { name: 'healthz', method: 'GET', path: '/healthz' }, serverPid, {
    connections: 10,
    warmupSeconds: 1,
    durationSeconds: seconds,
  });
  return { reqPerSec: result.reqPerSec, p50Ms: result.p50Ms, p95Ms: result.p95Ms };
}

/** A GraphQL call with a session header; throws on any error. */
async function graphql(base: string, session: string, query: string, variables: object): Promise<unknown> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { Authorization: session, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: unknown; errors?: unknown[] };
  if (res.status !== 200 || body.errors) throw new Error(`GraphQL answered ${res.status}: ${JSON.stringify(body)}`);
  return body.data;
}

/**
 * `count` active YARA rules that match nothing in the bench's packages (so uploads stay
 * automatically signed), each with a few strings and a condition over them, as real rules are.
 */
export async function createYaraRules(base: string, session: string, count: number): Promise<void> {
  const mutation = `mutation($input: ScannerRuleInput!) { createScannerRule(input: $input) { id } }`;
  for (let i = 0; i < count; i++) {
    const definition =
      `rule bench_rule_${i} { strings: $a = "bench-needle-${i}-a" $b = { 6A 40 68 00 30 00 00 6A ${(i % 256).toString(16).padStart(2, '0')} } ` +
      `$c = /eval\\(atob\\("bench${i}[A-Za-z0-9]{8}/ condition: any of them }`;
    await graphql(base, session, mutation, {
      input: { name: `bench_rule_${i}`, definition, action: 'FLAG_FOR_HUMAN_REVIEW' },
    });
  }
}

/** The scanners that ran on an add-on's latest unlisted version (seen by a reviewer). */
export async function scannersRun(base: string, session: string, guid: string): Promise<string[]> {
  const data = (await graphql(
    base,
    session,
    `
      query ($id: String!) {
        addon(id: $id) {
          latestUnlistedVersion {
            scannerResults {
              scanner
            }
          }
        }
      }
    `,
    { id: guid },
  )) as { addon: { latestUnlistedVersion: { scannerResults: { scanner: string }[] | null } | null } };
  return (data.addon.latestUnlistedVersion?.scannerResults ?? []).map((r) => r.scanner).sort();
}

export interface BurstOutcome {
  ok: boolean;
  totalMs: number;
  error?: string;
}

/**
 * `bursts` times: `size` uploads started at once by one user, each timed from its own start to
 * signed; the next burst starts once the previous one has settled (`settle`).
 */
export async function runBursts(
  bursts: number,
  size: number,
  upload: () => Promise<BurstOutcome>,
  settle: () => Promise<void>,
): Promise<{ samples: number[]; failures: string[]; wallMs: number[] }> {
  const samples: number[] = [];
  const failures: string[] = [];
  const wallMs: number[] = [];
  for (let b = 0; b < bursts; b++) {
    await settle();
    const started = performance.now();
    const outcomes = await Promise.all(Array.from({ length: size }, () => upload()));
    wallMs.push(performance.now() - started);
    for (const outcome of outcomes) {
      if (outcome.ok) samples.push(outcome.totalMs);
      else failures.push(outcome.error ?? 'failed');
    }
    await sleep(500);
  }
  return { samples, failures, wallMs };
}

/** p50 and p95 of samples, rounded. */
export function p50p95(samples: number[]): { p50Ms: number; p95Ms: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    p50Ms: Math.round(percentile(sorted, 50) * 10) / 10,
    p95Ms: Math.round(percentile(sorted, 95) * 10) / 10,
  };
}
