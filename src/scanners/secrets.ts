/**
 * Secret scanning: credentials left in a package's files. A small, documented rule set (docs/operations.md,
 * "Scanners"). Every pattern is linear-time (no nested quantifiers, bounded repetitions) and runs on
 * lines cut to `MAX_LINE` characters, so a hostile file cannot make matching slow.
 */
export interface SecretRule {
  readonly name: string;
  readonly description: string;
  readonly pattern: RegExp;
}

export const SECRET_RULES: readonly SecretRule[] = [
  {
    name: 'private_key',
    description: 'A PEM private key block (RSA, EC, DSA, OpenSSH, PKCS#8).',
    pattern: /-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----/,
  },
  { name: 'aws_access_key_id', description: 'An AWS access key id.', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  {
    name: 'github_token',
    description: 'A GitHub token (personal, OAuth, app, refresh or fine-grained).',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/,
  },
  { name: 'slack_token', description: 'A Slack token.', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,200}/ },
  { name: 'google_api_key', description: 'A Google API key.', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  {
    name: 'generic_api_key',
    description: 'An assignment of a quoted value of 16+ characters to a name such as api_key, secret or token.',
    pattern:
      /\b(?:api[_-]?key|api[_-]?secret|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token)["']?\s{0,5}[:=]\s{0,5}["'][A-Za-z0-9_\-+/=.]{16,200}["']/i,
  },
];

/** Lines longer than this are matched on their first MAX_LINE characters only. */
export const MAX_LINE = 4096;
/** At most this many findings are kept per package. */
export const MAX_FINDINGS = 100;

export interface SecretFinding {
  rule: string;
  file: string;
  line: number;
}

/** Files that are text to look in (binary files, images and fonts are skipped: a NUL byte in the first 8 KiB). */
function isText(data: Buffer): boolean {
  return !data.subarray(0, 8192).includes(0);
}

/** Every rule's matches in the files, with file name and 1-based line number. */
export function scanSecrets(files: readonly { name: string; data: Buffer }[]): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const file of files) {
    if (!isText(file.data)) continue;
    const lines = file.data.toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.length > MAX_LINE ? lines[i]!.slice(0, MAX_LINE) : lines[i]!;
      for (const rule of SECRET_RULES) {
        if (!rule.pattern.test(line)) continue;
        findings.push({ rule: rule.name, file: file.name, line: i + 1 });
        if (findings.length >= MAX_FINDINGS) return findings;
      }
    }
  }
  return findings;
}
