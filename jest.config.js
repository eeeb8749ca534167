import { SWC_OPTIONS } from './scripts/swc-options.mjs';

/** Jest runs TypeScript through swc as native ESM (see ../shared/notes/stack.md). */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/rest-compat', '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testTimeout: 60000,
  setupFiles: ['<rootDir>/test/setup.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...SWC_OPTIONS, sourceMaps: 'inline' }],
  },
};
