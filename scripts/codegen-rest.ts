import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { OPERATION_TYPES_FILE, renderOperationTypes } from './rest-operation-types.js';

/** Regenerates rest-compat/generated/operations.ts from the REST route table (a test fails while it is stale). */
const text = await renderOperationTypes();
writeFileSync(OPERATION_TYPES_FILE, text);
console.log(`rest-compat/generated/operations.ts written (${text.split('\n').length} lines)`);
