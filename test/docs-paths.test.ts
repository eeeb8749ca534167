import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The entry documents name files of this repository; when code moves, the names must follow. This
 * test reads README.md, ARCHITECTURE.md and the documents under docs/ and fails on:
 * - a repository path in backticks (`src/…`, `rest-compat/…`, `test/…`, `docs/…`, `bench/…`,
 *   `scripts/…`, `.ci/…`) that does not exist, placeholders aside (`src/<domain>/`, `*.test.ts`);
 * - a link to a local file that does not exist, or to a heading of a markdown file that it lacks.
 * No database, no app: it reads files only.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** docs/compat-notes.md is a copy of notes on the original service: its paths are the original's. */
const NOT_OURS = new Set(['docs/compat-notes.md']);

const DOCUMENTS = [
  'README.md',
  'ARCHITECTURE.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .filter((path) => !NOT_OURS.has(path)),
];

/** A repository path: a top folder this check covers, then path characters only (no placeholders). */
const REPO_PATH = /^(?:src|rest-compat|test|docs|bench|scripts|\.ci)\/[\w.@/-]*$/;

/** The text outside fenced code blocks (examples of shell sessions and payloads are not a map). */
function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** Repository paths named in code spans (a span may hold several words: each is looked at). */
function namedPaths(markdown: string): string[] {
  const found = new Set<string>();
  for (const [, span] of prose(markdown).matchAll(/`([^`]+)`/g)) {
    for (const word of span.split(/\s+/)) {
      const path = word.replace(/[),:;.]+$/, '');
      if (REPO_PATH.test(path)) found.add(path);
    }
  }
  return [...found];
}

/** Inline links `[text](target)` to local files (web addresses and mail links aside). */
function localLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
    if (!/^[a-z][a-z+.-]*:/i.test(target)) links.push(target);
  }
  return links;
}

/** The anchors GitHub gives a document's headings (lower case, punctuation dropped, spaces as `-`). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = text
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** What is wrong with one document's paths and links, as readable lines (empty: nothing). */
function problems(document: string, markdown: string, root = ROOT): string[] {
  const found: string[] = [];
  for (const path of namedPaths(markdown)) {
    if (!existsSync(join(root, path))) found.push(`${document}: \`${path}\` does not exist`);
  }
  for (const link of localLinks(markdown)) {
    const [file, anchor] = link.split('#', 2) as [string, string | undefined];
    if (file === '') {
      if (anchor && !anchors(markdown).has(anchor)) found.push(`${document}: link (${link}): no such heading here`);
      continue;
    }
    const target = resolve(root, dirname(document), decodeURI(file));
    const shown = relative(root, target) || '.';
    if (!existsSync(target)) {
      found.push(`${document}: link (${link}) to ${shown}, which does not exist`);
      continue;
    }
    if (anchor !== undefined && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor)) {
      found.push(`${document}: link (${link}): ${shown} has no heading #${anchor}`);
    }
  }
  return found;
}

describe('paths and links named by the documents', () => {
  it('finds what a document names, and reports what is missing', () => {
    const sample = [
      '# Title',
      '## Where: `src/` and `rest-compat/engine.ts`',
      'Read `test/docs-paths.test.ts`, run `bash .ci/run` and `npm test -- test/nowhere.test.ts`.',
      'Placeholders are no paths: `src/<domain>/manifest.ts`, `src/**/*.test.ts`; an URL: `/api/v5/`.',
      '[Up](ARCHITECTURE.md#layering), [here](#where-src-and-rest-compatenginets), [gone](#nowhere),',
      '[missing](docs/nothing.md) and [a site](https://example.org/x.md).',
      '```sh',
      'cat src/not-checked-in-code-blocks.ts `src/nor-this.ts`',
      '```',
    ].join('\n');
    expect(namedPaths(sample).sort()).toEqual([
      '.ci/run',
      'rest-compat/engine.ts',
      'src/',
      'test/docs-paths.test.ts',
      'test/nowhere.test.ts',
    ]);
    expect(problems('SAMPLE.md', sample)).toEqual([
      'SAMPLE.md: `test/nowhere.test.ts` does not exist',
      'SAMPLE.md: link (#nowhere): no such heading here',
      'SAMPLE.md: link (docs/nothing.md) to docs/nothing.md, which does not exist',
    ]);
    expect([...anchors("## Operators' command line\n### Trusted publishing (CI, no keys)\n## A\n## A")]).toEqual([
      'operators-command-line',
      'trusted-publishing-ci-no-keys',
      'a',
      'a-1',
    ]);
  });

  it.each(DOCUMENTS)('%s names only paths that exist, and its local links resolve', (document) => {
    const markdown = readFileSync(join(ROOT, document), 'utf8');
    expect(problems(document, markdown)).toEqual([]);
  });

  it('the README and ARCHITECTURE.md name a good part of the tree (the scan is not blind)', () => {
    const named = ['README.md', 'ARCHITECTURE.md'].flatMap((document) =>
      namedPaths(readFileSync(join(ROOT, document), 'utf8')),
    );
    expect(named.length).toBeGreaterThan(40);
    expect(named).toEqual(expect.arrayContaining(['src/core/', 'rest-compat/', '.ci/run', 'src/modules.ts']));
  });
});
