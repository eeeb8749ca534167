import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { OPENAPI_FILE, renderOpenApi } from './openapi/render.js';

/** Regenerates docs/openapi.json from the route table and the schema (a test fails while it is stale). */
const { text, unmatched } = await renderOpenApi();
mkdirSync(new URL('.', OPENAPI_FILE), { recursive: true });
writeFileSync(OPENAPI_FILE, text);
console.log(`docs/openapi.json written (${Math.round(text.length / 1024)} kB)`);
for (const route of unmatched)
  console.log(`  no route entry found in the source for ${route}: its answer is undocumented`);
