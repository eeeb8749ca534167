/** What a reviewer's file viewer does with a file: show it as text or an image, or offer a download. */
export type MimeCategory = 'text' | 'image' | 'binary' | 'directory';

export const DIRECTORY_MIMETYPE = 'application/octet-stream';

/** Types by extension (lower case), for the files add-ons are made of. */
const BY_EXTENSION: Record<string, string> = {
  js: 'application/javascript',
  mjs: 'application/javascript',
  cjs: 'application/javascript',
  jsm: 'application/javascript',
  json: 'application/json',
  map: 'application/json',
  css: 'text/css',
  html: 'text/html',
  htm: 'text/html',
  xhtml: 'application/xhtml+xml',
  xml: 'application/xml',
  rdf: 'application/xml',
  xul: 'application/vnd.mozilla.xul+xml',
  dtd: 'application/xml-dtd',
  properties: 'text/plain',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  ts: 'text/plain',
  jsx: 'text/plain',
  tsx: 'text/plain',
  vue: 'text/plain',
  wat: 'text/plain',
  dic: 'text/plain',
  aff: 'text/plain',
  ftl: 'text/plain',
  svg: 'image/svg+xml',
  png: 'image/png',
  apng: 'image/apng',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  ico: 'image/vnd.microsoft.icon',
  bmp: 'image/bmp',
  avif: 'image/avif',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
  zip: 'application/zip',
  xpi: 'application/x-xpinstall',
  jar: 'application/java-archive',
  pdf: 'application/pdf',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

/** Types that are text although their top-level type is not `text/`. */
const TEXT_TYPES = new Set([
  'application/javascript',
  'application/json',
  'application/xml',
  'application/xhtml+xml',
  'application/vnd.mozilla.xul+xml',
  'application/xml-dtd',
]);

/**
 * Git's rule for binary content: a NUL byte in the first 8,000 bytes (what `git diff` uses to
 * print "Binary files differ").
 */
export const BINARY_SNIFF_BYTES = 8000;

export function looksBinary(head: Buffer): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** The type its name's extension tells, or null. */
export function mimetypeByName(name: string): string | null {
  const dot = name.lastIndexOf('.');
  return (dot > name.lastIndexOf('/') ? BY_EXTENSION[name.slice(dot + 1).toLowerCase()] : undefined) ?? null;
}

/** The type and category of a file from its name and first bytes (unknown names are sniffed). */
export function fileType(name: string, head: Buffer): { mimetype: string; category: MimeCategory } {
  const mimetype = mimetypeByName(name) ?? (looksBinary(head) ? 'application/octet-stream' : 'text/plain');
  const category: MimeCategory = mimetype.startsWith('image/')
    ? 'image'
    : mimetype.startsWith('text/') || TEXT_TYPES.has(mimetype)
      ? looksBinary(head)
        ? 'binary'
        : 'text'
      : 'binary';
  return { mimetype, category };
}

/** A text file's content: UTF-8 (a BOM removed), or UTF-16 with its BOM; invalid bytes replaced. */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return bytes.toString('utf8');
}
