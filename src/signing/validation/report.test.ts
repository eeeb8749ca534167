import type { LinterOutput } from './linter-output.js';
import { escapeHtml, renderValidationReport } from './report.js';
import { crashResults, toValidationResults } from './results.js';

const HOSTILE = '<script>alert("x")</script>';

const output: LinterOutput = {
  count: 3,
  summary: { errors: 1, warnings: 1, notices: 1 },
  metadata: null,
  errors: [
    {
      _type: 'error',
      code: 'VERSION_FORMAT_INVALID',
      message: 'The version string should be simplified.',
      description: 'See https://mzl.la/3h3mCRu (MDN Docs) for more information.',
      file: 'manifest.json',
    },
  ],
  warnings: [
    {
      _type: 'warning',
      code: 'DANGEROUS_EVAL',
      message: `eval can be harmful ${HOSTILE}`,
      description: [`First ${HOSTILE}`, 'Second paragraph'],
      file: `bg${HOSTILE}.js`,
      line: 3,
      column: 10,
    },
  ],
  notices: [
    {
      _type: 'notice',
      code: 'PERMISSION_NOTICE',
      message: 'A notice',
      description: 'About a permission',
      file: 'manifest.json',
      instancePath: '/permissions/0',
    },
  ],
};

describe('renderValidationReport', () => {
  const results = toValidationResults(output, { listed: false });
  const html = renderValidationReport(results, { title: `My ${HOSTILE} add-on`, guid: `id${HOSTILE}`, version: '1.0' });

  it('is a self-contained page that cannot run scripts', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).not.toMatch(/<script|<link|\ssrc=/i);
  });

  it('escapes every value taken from the package or the caller', () => {
    expect(html).toContain('My &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; add-on');
    expect(html).toContain('<code>id&lt;script&gt;');
    expect(html).toContain('eval can be harmful &lt;script&gt;');
    expect(html).toContain('<p>First &lt;script&gt;');
    expect(html).toContain('<code>bg&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;.js:3:10</code>');
  });

  it('summarises, then lists errors, warnings and notices with where and what', () => {
    expect(html).toContain('Validation failed');
    expect(html).toContain('<li class="error">1 error</li><li class="warning">1 warning</li>');
    expect(html).toContain('Unlisted');
    const order = ['<h2>Errors</h2>', '<h2>Warnings</h2>', '<h2>Notices</h2>'].map((h) => html.indexOf(h));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order[0]).toBeGreaterThan(0);
    expect(html).toContain('<code>manifest.json</code> · <code>VERSION_FORMAT_INVALID</code>');
    expect(html).toContain('<code>manifest.json (/permissions/0)</code>');
    expect(html).toContain('<p>Second paragraph</p>');
  });

  it('links URLs in descriptions, without the punctuation around them', () => {
    expect(html).toContain(
      'See <a href="https://mzl.la/3h3mCRu" rel="nofollow noopener noreferrer">https://mzl.la/3h3mCRu</a> (MDN Docs)',
    );
  });

  it('renders a passing and a crashed validation', () => {
    const clean = toValidationResults(
      { ...output, summary: { errors: 0, warnings: 0, notices: 0 }, errors: [], warnings: [], notices: [] },
      { listed: true },
    );
    const cleanHtml = renderValidationReport(clean, { title: 'Clean' });
    expect(cleanHtml).toContain('Validation passed.');
    expect(cleanHtml).toContain('No problems found.');
    expect(cleanHtml).not.toContain('<h2>');

    const crashHtml = renderValidationReport(crashResults({ listed: true }), { title: 'Crashed' });
    expect(crashHtml).toContain('Sorry, we couldn&#39;t load your WebExtension.');
    expect(crashHtml).toContain('<code>validator.unexpected_exception</code>');
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter in text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
