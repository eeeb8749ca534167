/**
 * The scanners suite (in-process, no server or database): what the `scan-version` job costs per
 * upload, as a ratio to validation (addons-linter through the project's `Validator`, warm) of the
 * same package in the same run. The package is a small extension with a 300 KB bundled script;
 * the scan reads the package, runs BENCH_SCANNERS_RULES YARA rules (default 50, Debian's `yara`
 * CLI), the secret rules, and looks its name up among BENCH_SCANNERS_NAMES public names (default
 * 10,000) by their look-alike keys (lookalike-keys.ts; here an in-memory map of the stored keys,
 * built untimed: the database's index is timed by the look-alike suite, bench/lookalike.ts, run
 * after it, which reports the step's cost at 500,000 add-ons as a ratio to 1,000). Every run checks
 * the planted secret and YARA hit are found. BENCH_SCANNERS_RUNS runs (default 5); medians.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import yazl from 'yazl';
import { looksAlike, normaliseName } from '../src/scanners/lookalike.js';
import { nameSkeletons, probeKeys, storedKeys } from '../src/scanners/lookalike-keys.js';
import { scanSecrets } from '../src/scanners/secrets.js';
import { yaraScan } from '../src/scanners/yara.js';
import { readZip } from '../src/archive/zip.js';
import { Validator } from '../src/signing/validation/validator.js';
import { fmt } from './lib.js';
import {
  lookalikeSettings,
  printLookalikeReport,
  runLookalikeSuite,
  type LookalikeReport,
  type LookalikeSettings,
} from './lookalike.js';

export interface ScannersSettings {
  rules: number;
  names: number;
  runs: number;
  lookalike: LookalikeSettings;
}

export interface ScannersReport extends ScannersSettings {
  packageBytes: number;
  validateMs: number;
  scanMs: number;
  yaraMs: number;
  secretsMs: number;
  lookalikeMs: number;
  /** The look-alike step against the database at growing catalogue sizes (bench/lookalike.ts). */
  lookalike: LookalikeReport;
  failures: string[];
}

export function scannersSettings(): ScannersSettings {
  return {
    rules: Number(process.env.BENCH_SCANNERS_RULES ?? 50),
    names: Number(process.env.BENCH_SCANNERS_NAMES ?? 10_000),
    runs: Number(process.env.BENCH_SCANNERS_RUNS ?? 5),
    lookalike: lookalikeSettings(),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function benchPackage(): Promise<Buffer> {
  const manifest = {
    manifest_version: 2,
    name: 'Scanner Bench',
    description: 'An extension scanned by the scanners benchmark.',
    version: '1.0.0',
    browser_specific_settings: {
      gecko: { id: 'scanners@bench.example.com', data_collection_permissions: { required: ['none'] } },
    },
    background: { scripts: ['background.js', 'lib/bundle.js'] },
  };
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < 300_000; i++) {
    lines.push(`export function helper${i}(value) { return String(value).padStart(${i % 40}, "0") + "${i}"; }`);
  }
  lines.push('const settings = { api_key: "0123456789abcdef0123" };');
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), 'manifest.json');
  zip.addBuffer(
    Buffer.from('browser.runtime.onInstalled.addListener(() => console.log("installed"));\n'),
    'background.js',
  );
  zip.addBuffer(Buffer.from(lines.join('\n')), 'lib/bundle.js');
  zip.end();
  return buffer(zip.outputStream);
}

function yaraRules(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    definition:
      i === 0
        ? 'rule bench_hit { strings: $a = "helper1234(" condition: $a }'
        : `rule bench_${i} { strings: $a = "never-present-${i}" $b = { 6A 40 68 00 30 00 00 ${(i % 256).toString(16).padStart(2, '0')} } condition: any of them }`,
  }));
}

export async function runScannersSuite(options: {
  settings: ScannersSettings;
  log: (line: string) => void;
}): Promise<ScannersReport> {
  const { rules: ruleCount, names: nameCount, runs } = options.settings;
  const dir = mkdtempSync(join(tmpdir(), 'bench-scanners-'));
  const file = join(dir, 'package.xpi');
  const bytes = await benchPackage();
  writeFileSync(file, bytes);
  const rules = yaraRules(ruleCount);
  const names = Array.from({ length: nameCount }, (_, i) => `Public Add-on Number ${i} Tab Helper`);
  const trademarks = ['Vendor', 'Browser'];
  // The stored keys (untimed, as the database's index): key -> names.
  const index = new Map<string, string[]>();
  for (const name of names) {
    for (const key of storedKeys(nameSkeletons({ 'en-US': name }, trademarks))) {
      const list = index.get(key);
      if (list) list.push(name);
      else index.set(key, [name]);
    }
  }
  const validator = new Validator({ poolSize: 1 });
  await validator.start();
  const failures: string[] = [];
  const times = { validate: [] as number[], scan: [] as number[], yara: [] as number[], secrets: [] as number[] };
  const lookalikes: number[] = [];
  options.log(
    `scanners: ${bytes.length} byte package, ${ruleCount} YARA rules, ${nameCount} public names, ${runs} runs`,
  );
  try {
    // One warm-up validation: the linter worker's first run loads its rules.
    await validator.validate(file, { listed: false, detectedType: 'extension', injected: [] });
    for (let run = 0; run < runs; run++) {
      let started = performance.now();
      const results = await validator.validate(file, { listed: false, detectedType: 'extension', injected: [] });
      times.validate.push(performance.now() - started);
      if (results.errors > 0) failures.push(`run ${run}: the package does not validate`);

      started = performance.now();
      const members = await readZip(file);
      const yaraStarted = performance.now();
      const hits = await yaraScan(rules, members);
      const secretsStarted = performance.now();
      const secrets = scanSecrets(members);
      const lookalikeStarted = performance.now();
      const mine = normaliseName('Scanner Bench', trademarks);
      const candidates = new Set(probeKeys(mine).flatMap((key) => index.get(key) ?? []));
      const alike = [...candidates].filter((name) => looksAlike(mine, normaliseName(name, trademarks)));
      const done = performance.now();
      times.scan.push(done - started);
      times.yara.push(secretsStarted - yaraStarted);
      times.secrets.push(lookalikeStarted - secretsStarted);
      lookalikes.push(done - lookalikeStarted);
      if (hits.length !== 1 || hits[0]!.file !== 'lib/bundle.js')
        failures.push(`run ${run}: YARA hits ${JSON.stringify(hits)}`);
      if (secrets.length !== 1 || secrets[0]!.rule !== 'generic_api_key') {
        failures.push(`run ${run}: secrets ${JSON.stringify(secrets)}`);
      }
      if (alike.length) failures.push(`run ${run}: ${alike.length} look-alike names`);
    }
  } finally {
    await validator.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const lookalike = await runLookalikeSuite({ settings: options.settings.lookalike, log: options.log });
  failures.push(...lookalike.failures.map((f) => `look-alike: ${f}`));
  return {
    ...options.settings,
    packageBytes: bytes.length,
    validateMs: median(times.validate),
    scanMs: median(times.scan),
    yaraMs: median(times.yara),
    secretsMs: median(times.secrets),
    lookalikeMs: median(lookalikes),
    lookalike,
    failures,
  };
}

export function printScannersReport(report: ScannersReport): void {
  console.log(`\nscanners per upload (medians of ${report.runs}; ${report.packageBytes} byte package)`);
  console.log(`  validation (addons-linter):  ${fmt(report.validateMs)} ms`);
  console.log(
    `  scan:                        ${fmt(report.scanMs)} ms = ${(report.scanMs / report.validateMs).toFixed(2)}x validation`,
  );
  console.log(`    YARA (${report.rules} rules, CLI):    ${fmt(report.yaraMs)} ms`);
  console.log(`    secrets:                   ${fmt(report.secretsMs)} ms`);
  console.log(`    look-alike (${report.names} names): ${fmt(report.lookalikeMs)} ms`);
  printLookalikeReport(report.lookalike);
}
