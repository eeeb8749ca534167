// The one swc transform of the project's TypeScript: tests (jest.config.js) and the build
// (scripts/build.mjs). Legacy decorators with metadata (type-graphql, MikroORM), ES2022, ES modules.
export const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'es6' },
};
