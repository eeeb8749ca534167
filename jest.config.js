import { SWC_OPTIONS } from './scripts/swc-options.mjs';

/** Jest runs TypeScript through swc as native ESM (see ../shared/notes/stack.md). */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/rest-compat', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 60000,
  // Each test file boots the whole app; some of every boot stays reachable after its file ends
  // (about 40-100 MB a file), so one process running the whole suite passed Node's default heap
  // limit (4 GB). With a limit set, Jest runs the files in a worker process (one at a time on two
  // cores, as before) and replaces it once it holds more than this after a file.
  workerIdleMemoryLimit: '1536MB',
  setupFiles: ['<rootDir>/test/setup.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...SWC_OPTIONS, sourceMaps: 'inline' }],
  },
};
