import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
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

/**
 * Runs the rules on the files (written under neutral names, so a member's path never reaches the
 * file system), with the rules' matches by file.
 */
export async function yaraScan(
  rules: readonly YaraRuleSource[],
  files: readonly { name: string; data: Buffer }[],
): Promise<YaraMatch[]> {
  if (!rules.length || !files.length) return [];
  return withTemp(async (dir) => {
    const args = ['-w', '-e', '-r', '-a', String(YARA_TIMEOUT_SECONDS)];
    for (const rule of rules) {
      const path = join(dir, `r${rule.id}.yar`);
      await writeFile(path, rule.definition);
      args.push(`r${rule.id}:${path}`);
    }
    const root = join(dir, 'files');
    await mkdir(root);
    const names = new Map<string, string>();
    for (const [index, file] of files.entries()) {
      const path = join(root, `f${index}`);
      await writeFile(path, file.data);
      names.set(path, file.name);
    }
    args.push(root);
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
