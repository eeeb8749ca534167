// addons-linter ships no type declarations; this is the part of its programmatic API the worker uses.
declare module 'addons-linter' {
  export interface LinterConfig {
    _: string[];
    logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug';
    stack: boolean;
    pretty: boolean;
    boring: boolean;
    warningsAsErrors: boolean;
    metadata: boolean;
    output: 'none' | 'json' | 'text';
    selfHosted: boolean;
  }

  export interface LinterInstance {
    /** Resolves with the report (plain objects, except a Set in metadata); throws on unreadable input paths. */
    run(): Promise<unknown>;
  }

  const linter: {
    createInstance(options: { config: LinterConfig; runAsBinary: boolean }): LinterInstance;
  };
  export default linter;
}
