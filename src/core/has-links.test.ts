import { hasLinks } from './has-links.js';

describe('hasLinks', () => {
  it.each([
    'https://example.com',
    'see http://example.com/path?x=1 please',
    'www.example.org',
    'example.com',
    'sub.domain.co.uk/page',
    'EXAMPLE.COM',
    'ftp://files.example.net:2121/x',
    'https://user@example.com',
    '<a href="/relative">x</a>',
    "<A HREF='javascript:x'>y</A>",
  ])('finds a link in %j', (text) => expect(hasLinks(text)).toBe(true));

  it.each([
    'Plain words.',
    'node.js and vue.js',
    'e.g. this, i.e. that',
    'version 1.2.3',
    'me@example.com',
    'http://localhost:8000/',
    'http://127.0.0.1/',
    '<a name="anchor">x</a>',
    'examplecom',
  ])('finds no link in %j', (text) => expect(hasLinks(text)).toBe(false));
});
