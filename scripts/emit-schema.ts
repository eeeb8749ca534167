import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { printAppSchema } from '../src/graphql/schema.js';
import { buildAppSchema } from '../src/modules.js';

/** Regenerates schema.graphql from the resolvers (a test fails while it is stale). */
const sdl = printAppSchema(await buildAppSchema(null));
writeFileSync(new URL('../schema.graphql', import.meta.url), sdl);
console.log(`schema.graphql written (${sdl.split('\n').length} lines)`);
