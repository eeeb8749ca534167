import { readFileSync } from 'node:fs';
import { OPERATION_TYPES_FILE, renderOperationTypes } from '../scripts/rest-operation-types.js';

describe('rest-compat/generated/operations.ts', () => {
  it('is what the route table and schema.graphql generate (run `npm run codegen:rest` after changing a document)', async () => {
    expect(await renderOperationTypes()).toBe(readFileSync(OPERATION_TYPES_FILE, 'utf8'));
  });
});
