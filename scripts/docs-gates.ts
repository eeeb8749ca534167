// Rewrites the README's table of REST API gates from rest-compat/gates.ts (formatted by prettier).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { withGateTable } from '../rest-compat/gates.docs.js';

const path = fileURLToPath(new URL('../README.md', import.meta.url));
const options = (await prettier.resolveConfig(path)) ?? {};
writeFileSync(path, await prettier.format(withGateTable(readFileSync(path, 'utf8')), { ...options, filepath: path }));
