import { SWC_OPTIONS } from './scripts/swc-options.mjs';

/** Jest runs TypeScript through swc as native ESM (see ../shared/notes/stack.md). */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/rest-compat', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 60000,
  // Node never releases the ES modules Jest evaluates for a test file, so a worker's heap grows with
  // every file: about 27 MB of module graph, plus whatever the file's top-level variables hold (a
  // closed test app and its database let go of everything: test/helpers/app.ts). One process running
  // the whole suite would pass Node's default heap limit; with a limit set, Jest runs the files in a
  // worker process (one at a time, as before) and replaces it once it holds more than this.
  workerIdleMemoryLimit: '1536MB',
  setupFiles: ['<rootDir>/test/setup.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...SWC_OPTIONS, sourceMaps: 'inline' }],
  },
};
