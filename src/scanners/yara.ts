import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * YARA through Debian's `yara` and `yarac` (YARA 4; `apt-get install yara`). The CLI, not a Node
 * binding: it installs from the distribution, runs out of process (a rule cannot crash or stall the
 * service: each run has a timeout) and its compiler checks a rule when it is saved.
 */
export const YARA_TIMEOUT_SECONDS = 30;

export class YaraUnavailableError extends Error {
  constructor(cause: unknown) {
    super("YARA is not installed: the scanners need Debian's yara package (apt-get install -y yara)", { cause });
  }
}

export interface YaraRuleSource {
  /** Namespaces the rule's output (one rule file per rule, so names of different rules never clash). */
  readonly id: number;
  readonly definition: string;
}

export interface YaraMatch {
  ruleId: number;
  /** The rule identifier inside the definition that matched. */
  identifier: string;
  file: string;
}

function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: (YARA_TIMEOUT_SECONDS + 5) * 1000, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = (error as NodeJS.ErrnoException | null)?.code;
        if (code === 'ENOENT') return reject(new YaraUnavailableError(error));
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

async function withTemp<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'yara-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The compiler's error for a rule's text (`line N: …`), or null when it compiles. */
export async function yaraCompileError(definition: string): Promise<string | null> {
  return withTemp(async (dir) => {
    const source = join(dir, 'rule.yar');
    await writeFile(source, definition);
    const { code, stderr, stdout } = await run('yarac', ['-w', source, join(dir, 'rule.yarc')]);
    if (code === 0) return null;
    const message = (stderr || stdout).trim().split('\n')[0] ?? 'The rule does not compile.';
    return message.replace(source, 'rule').replace(/^error: /, '') || 'The rule does not compile.';
  });
}

/** The active rules compiled once (`yarac`), reused by every scan until the rules change. */
interface CompiledRules {
  fingerprint: string;
  dir: string;
  path: string;
}

let compiled: Promise<CompiledRules> | null = null;
const RULES_GRACE_MS = (YARA_TIMEOUT_SECONDS + 10) * 1000;
let compiledFingerprint = '';

function fingerprintOf(rules: readonly YaraRuleSource[]): string {
  const hash = createHash('sha256');
  for (const rule of rules) hash.update(`${rule.id}\0${rule.definition}\0`);
  return hash.digest('hex');
}

async function compile(rules: readonly YaraRuleSource[], fingerprint: string): Promise<CompiledRules> {
  const dir = await mkdtemp(join(tmpdir(), 'yara-rules-'));
  try {
    const args = ['-w'];
    for (const rule of rules) {
      const path = join(dir, `r${rule.id}.yar`);
      await writeFile(path, rule.definition);
      args.push(`r${rule.id}:${path}`);
    }
    const path = join(dir, 'rules.yarc');
    const { code, stderr } = await run('yarac', [...args, path]);
    if (code !== 0) throw new Error(`yarac failed (${code}): ${stderr.trim().split('\n')[0]}`);
    return { fingerprint, dir, path };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The rules as one compiled file: compiled when the rule set changes (a save, an activation), not
 * at every scan (50 rules take ~30 ms to compile). The previous set's file is removed once replaced.
 */
function compiledRules(rules: readonly YaraRuleSource[]): Promise<CompiledRules> {
  const fingerprint = fingerprintOf(rules);
  if (compiled && compiledFingerprint === fingerprint) return compiled;
  const previous = compiled;
  compiledFingerprint = fingerprint;
  compiled = compile(rules, fingerprint);
  compiled.catch(() => {
    if (compiledFingerprint === fingerprint) compiled = null;
  });
  // Removed once scans started with it are over (a scan lasts at most its timeout).
  void previous?.then(
    (old) => setTimeout(() => void rm(old.dir, { recursive: true, force: true }), RULES_GRACE_MS).unref(),
    () => undefined,
  );
  return compiled;
}

/**
 * Runs the rules on the files (written under neutral names, so a member's path never reaches the
 * file system), with the rules' matches by file. The rules are compiled once per rule set; a scan
 * is one `yara` process over the files, bounded by YARA_TIMEOUT_SECONDS (a hostile file's worst
 * case, which a common package never comes near).
 */
export async function yaraScan(
  rules: readonly YaraRuleSource[],
  files: readonly { name: string; data: Buffer }[],
): Promise<YaraMatch[]> {
  if (!rules.length || !files.length) return [];
  const ruleFile = await compiledRules(rules);
  return withTemp(async (dir) => {
    const names = new Map<string, string>();
    await Promise.all(
      files.map((file, index) => {
        const path = join(dir, `f${index}`);
        names.set(path, file.name);
        return writeFile(path, file.data);
      }),
    );
    const args = ['-w', '-e', '-r', '-a', String(YARA_TIMEOUT_SECONDS), '-C', ruleFile.path, dir];
    const { code, stdout, stderr } = await run('yara', args);
    if (code !== 0) throw new Error(`yara failed (${code}): ${stderr.trim().split('\n')[0]}`);
    const matches: YaraMatch[] = [];
    for (const line of stdout.split('\n')) {
      const found = /^r(\d+):(\S+) (.+)$/.exec(line);
      if (!found) continue;
      const file = names.get(found[3]!);
      if (file !== undefined) matches.push({ ruleId: Number(found[1]), identifier: found[2]!, file });
    }
    return matches;
  });
}
