// Types of imports.mjs (plain JavaScript, so that Node runs the structure report without a build),
// for test/layering.test.ts.

export declare const ROOT: string;
export declare const PLATFORM: readonly string[];
export declare function sources(dir: string, root?: string): string[];
export declare function specifiers(code: string): string[];
export declare function importsOf(file: string, root?: string): string[];
export declare function within(target: string, folder: string): boolean;
export declare function violations(files: readonly string[], folder: string, root?: string): string[];
export declare function domainFolders(root?: string): string[];
export declare function compositionOrder(root?: string): { files: string[]; order: string[] };
export declare function components(graph: Map<string, Iterable<string>>): string[][];
export declare function domainOf(path: string, domains: readonly string[]): string | undefined;
export declare function cycleImports(
  files: readonly string[],
  domains: readonly string[],
  order: readonly string[],
  root?: string,
): { imports: string[]; cycles: string[][]; graph: Map<string, Set<string>> };
export declare function isResolver(file: string, root?: string): boolean;
export declare function isService(target: string): boolean;
export declare function resolverServiceImports(
  files: readonly string[],
  domains: readonly string[],
  root?: string,
): string[];
