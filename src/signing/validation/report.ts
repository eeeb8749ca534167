import type { MessageType, ValidationMessage, ValidationResults } from './results.js';
import { escapeHtml } from '../../core/html.js';

export interface ReportOptions {
  /** Usually the add-on name or the uploaded file name. */
  title: string;
  guid?: string;
  version?: string;
}

const SECTIONS: { type: MessageType; heading: string }[] = [
  { type: 'error', heading: 'Errors' },
  { type: 'warning', heading: 'Warnings' },
  { type: 'notice', heading: 'Notices' },
];

const STYLE = `
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1b1f;background:#f6f6f8;margin:0}
main{max-width:60rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.5rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin:2rem 0 .5rem}h3{font-size:1rem;margin:0}
.meta{color:#5b5b66;margin:0 0 1rem}.meta span+span::before{content:" · "}
.verdict{font-weight:600;padding:.5rem .75rem;border-radius:4px}
.pass{background:#e3f6e8;color:#0b5d26}.fail{background:#fde8e8;color:#8b1010}
.counts{display:flex;gap:1rem;list-style:none;padding:0}
.counts li{background:#fff;border-radius:4px;padding:.25rem .75rem;border-left:4px solid}
ol{list-style:none;padding:0}
.message{background:#fff;border-radius:4px;border-left:4px solid;padding:.75rem 1rem;margin:0 0 .75rem}
.message p{margin:.35rem 0}.where{color:#5b5b66;font-size:.9em}
.error{border-color:#d70022}.warning{border-color:#d7b600}.notice{border-color:#0a84ff}
code{font:.9em ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
`;

/**
 * The page served at an upload's `validation_url`: self-contained (inline CSS, no scripts, a CSP that
 * forbids them anyway) and with every value from the package escaped.
 */
export function renderValidationReport(results: ValidationResults, options: ReportOptions): string {
  const body = [
    `<h1>${escapeHtml(options.title)}</h1>`,
    meta(results, options),
    verdict(results),
    counts(results),
    ...SECTIONS.map(({ type, heading }) =>
      section(
        heading,
        results.messages.filter((m) => m.type === type),
      ),
    ),
  ];
  if (results.messages.length === 0) body.push('<p>No problems found.</p>');
  return page(`Validation results: ${options.title}`, body.join('\n'));
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function meta(results: ValidationResults, { guid, version }: ReportOptions): string {
  const parts = [
    guid && `Add-on ID <code>${escapeHtml(guid)}</code>`,
    version && `Version <code>${escapeHtml(version)}</code>`,
    `Type: ${escapeHtml(results.detected_type)}`,
    results.metadata.listed ? 'Listed' : 'Unlisted',
  ];
  return `<p class="meta">${parts
    .filter(Boolean)
    .map((part) => `<span>${part}</span>`)
    .join('')}</p>`;
}

function verdict(results: ValidationResults): string {
  return results.success
    ? '<p class="verdict pass">Validation passed.</p>'
    : '<p class="verdict fail">Validation failed: fix the errors below and upload the file again.</p>';
}

function counts(results: ValidationResults): string {
  const items = SECTIONS.map(({ type }) => {
    const count = results[`${type}s`];
    return `<li class="${type}">${count} ${type}${count === 1 ? '' : 's'}</li>`;
  });
  return `<ul class="counts">${items.join('')}</ul>`;
}

function section(heading: string, messages: ValidationMessage[]): string {
  if (messages.length === 0) return '';
  return `<section>\n<h2>${heading}</h2>\n<ol>\n${messages.map(messageItem).join('\n')}\n</ol>\n</section>`;
}

function messageItem(message: ValidationMessage): string {
  const descriptions = [message.description].flat().filter((text) => text.length > 0);
  return [
    `<li class="message ${escapeHtml(message.type)}">`,
    `<h3>${escapeHtml(message.message)}</h3>`,
    where(message),
    ...descriptions.map((text) => `<p>${linkify(text)}</p>`),
    '</li>',
  ].join('\n');
}

function where(message: ValidationMessage): string {
  const code = message.id.filter(Boolean).join('.');
  const parts = [location(message), code && `<code>${escapeHtml(code)}</code>`].filter(Boolean);
  return parts.length > 0 ? `<p class="where">${parts.join(' · ')}</p>` : '';
}

function location({ file, line, column, instancePath }: ValidationMessage): string {
  if (!file) return '';
  const position = [file, line, line !== undefined ? column : undefined].filter((part) => part !== undefined);
  const path = instancePath ? ` (${instancePath})` : '';
  return `<code>${escapeHtml(position.join(':') + path)}</code>`;
}

const URL_PATTERN = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g;

/** Escapes the text and turns its http(s) URLs into links; nothing else in it can become markup. */
function linkify(text: string): string {
  let html = '';
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = escapeHtml(match[0]);
    html +=
      escapeHtml(text.slice(last, match.index)) + `<a href="${url}" rel="nofollow noopener noreferrer">${url}</a>`;
    last = match.index + match[0].length;
  }
  return html + escapeHtml(text.slice(last));
}

export { escapeHtml } from '../../core/html.js';
