import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';
import { createV5Program, ROOT } from './v5-program.js';

/** What the source of one route entry tells the document (read from the v5-specialized program). */
export interface RouteSource {
  method: string;
  /** The path, or a pattern of it where the entry's path is a template (entries made by functions). */
  path: string | RegExp;
  /** The operation's name where the document spells it out. */
  operation: string | null;
  versions: string[];
  /** `shape`'s return type; null without `shape` (the data as is: see RouteTypes.operationType). */
  answer: ts.Type | null;
  hasShape: boolean;
  /** Query parameters the entry's functions read (`variables`, `shape`, `status`, cache rules). */
  query: string[];
  /** Success statuses the entry names (`status`), default 200. */
  statuses: number[];
  /** The entry's own doc comment, if any. */
  comment: string | null;
  file: string;
}

export interface RouteTypes {
  program: ts.Program;
  checker: ts.TypeChecker;
  routes: RouteSource[];
  /** A type declared in rest-compat/route.ts (TranslatedOutput, LinkOutput). */
  routeType(name: string): ts.Type;
  /** The data type of a named operation (rest-compat/generated/operations.ts), if generated. */
  operationType(name: string, kind: 'query' | 'mutation'): ts.Type | null;
}

const REST = join(ROOT, 'rest-compat');
const ROUTES_DIR = join(REST, 'routes');
const OPERATIONS = join(REST, 'generated', 'operations.ts');
const ROUTE_TS = join(REST, 'route.ts');
const PARAM_READS = new Set(['get', 'has', 'getAll']);
const SEARCH_PARAM_TYPES = new Set(['URLSearchParams', 'ReadTrackingParams']);

/** Every route entry (an object literal with `method`, `path` and `document`) in rest-compat/. */
export function readRouteTypes(): RouteTypes {
  const files = readdirSync(ROUTES_DIR)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(ROUTES_DIR, f));
  const program = createV5Program([...files, ROUTE_TS, OPERATIONS]);
  const checker = program.getTypeChecker();
  const operationsFile = program.getSourceFile(OPERATIONS)!;
  const operationExports = new Map<string, ts.Symbol>();
  for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(operationsFile)!)) {
    operationExports.set(symbol.getName(), symbol);
  }
  const routeFile = program.getSourceFile(ROUTE_TS)!;
  const routeExports = checker.getExportsOfModule(checker.getSymbolAtLocation(routeFile)!);

  const routes: RouteSource[] = [];
  for (const file of program.getSourceFiles()) {
    const name = file.fileName.split('/').join(sep);
    if (!name.startsWith(REST + sep) || name.includes(`${sep}generated${sep}`) || name.endsWith('.test.ts')) continue;
    const visit = (node: ts.Node) => {
      if (ts.isObjectLiteralExpression(node)) {
        const entry = readEntry(node, file, checker);
        if (entry) routes.push(entry);
      }
      node.forEachChild(visit);
    };
    visit(file);
  }
  return {
    program,
    checker,
    routes,
    operationType: (operation, kind) => {
      const symbol = operationExports.get(`${operation}${kind === 'query' ? 'Query' : 'Mutation'}`);
      return symbol ? checker.getDeclaredTypeOfSymbol(symbol) : null;
    },
    routeType: (typeName) => {
      const symbol = routeExports.find((s) => s.getName() === typeName);
      if (!symbol) throw new Error(`rest-compat/route.ts exports no ${typeName}`);
      return checker.getDeclaredTypeOfSymbol(symbol);
    },
  };
}

/** A property's initializer: written in the entry, or in an object the entry spreads. */
function property(node: ts.ObjectLiteralExpression, name: string, checker: ts.TypeChecker): ts.Expression | undefined {
  for (const p of node.properties) {
    if (!p.name || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) || p.name.text !== name) continue;
    if (ts.isPropertyAssignment(p)) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p)) return p.name;
    if (ts.isMethodDeclaration(p)) return p as unknown as ts.Expression;
  }
  if (!node.properties.some(ts.isSpreadAssignment)) return undefined;
  const declaration = checker.getPropertyOfType(checker.getTypeAtLocation(node), name)?.valueDeclaration;
  if (!declaration) return undefined;
  if (ts.isPropertyAssignment(declaration)) return declaration.initializer;
  if (ts.isShorthandPropertyAssignment(declaration)) return declaration.name;
  if (ts.isMethodDeclaration(declaration)) return declaration as unknown as ts.Expression;
  return undefined;
}

/** The string literals a type holds (a literal, a union of them, an array or tuple of them). */
function stringLiterals(type: ts.Type, checker: ts.TypeChecker): string[] {
  if (type.isStringLiteral()) return [type.value];
  if (type.isUnion()) return type.types.flatMap((t) => stringLiterals(t, checker));
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    return checker.getTypeArguments(type as ts.TypeReference).flatMap((t) => stringLiterals(t, checker));
  }
  return [];
}

function readEntry(node: ts.ObjectLiteralExpression, file: ts.SourceFile, checker: ts.TypeChecker): RouteSource | null {
  const pathNode = property(node, 'path', checker);
  const documentNode = property(node, 'document', checker);
  if (!documentNode) return null;
  const objectType = checker.getTypeAtLocation(node);
  const typeOf = (name: string) => {
    const symbol = checker.getPropertyOfType(objectType, name);
    return symbol ? checker.getTypeOfSymbolAtLocation(symbol, node) : null;
  };
  const methodType = typeOf('method');
  const versionsType = typeOf('versions');
  const [method] = methodType ? stringLiterals(methodType, checker) : [];
  const versions = versionsType ? stringLiterals(versionsType, checker) : [];
  if (!method) return null;
  let path: string | RegExp;
  // No path: the entry gets it from a function (`bothPaths(entry, path)`): told apart by the operation.
  if (!pathNode) path = /^.*$/;
  else if (ts.isStringLiteralLike(pathNode)) path = pathNode.text;
  else if (ts.isTemplateExpression(pathNode)) {
    const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    path = new RegExp(
      `^${escape(pathNode.head.text)}${pathNode.templateSpans.map((span) => `.*${escape(span.literal.text)}`).join('')}$`,
    );
  } else {
    // A path passed in (`path: base`, `{ ...entry, path }`): any path, told apart by the operation.
    const [literal] = stringLiterals(checker.getTypeAtLocation(pathNode), checker);
    path = literal ?? /^.*$/;
  }
  let documentSource: ts.Node = documentNode;
  if (ts.isIdentifier(documentNode)) {
    const declaration = checker.getSymbolAtLocation(documentNode)?.valueDeclaration;
    if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer)
      documentSource = declaration.initializer;
  }
  const operation =
    /\b(?:query|mutation)\s+([A-Za-z0-9_]+)(?![A-Za-z0-9_$])/.exec(
      documentSource.getText(documentSource.getSourceFile()),
    )?.[1] ?? null;

  let answer: ts.Type | null = null;
  const shape = property(node, 'shape', checker);
  if (shape) {
    const signature = checker.getTypeAtLocation(shape).getCallSignatures()[0];
    answer = signature ? checker.getReturnTypeOfSignature(signature) : null;
  }

  const query = new Set<string>();
  const scanner = new ParamScanner(checker, query);
  for (const key of ['variables', 'shape', 'status', 'cache', 'cacheVariants', 'errorFields']) {
    const value = property(node, key, checker);
    if (value) scanner.scanValue(value);
  }

  const statuses = new Set<number>();
  const status = property(node, 'status', checker);
  if (status) {
    const collect = (n: ts.Node) => {
      if (ts.isNumericLiteral(n) && Number(n.text) >= 200 && Number(n.text) < 400) statuses.add(Number(n.text));
      n.forEachChild(collect);
    };
    collect(status);
  }
  if (!statuses.size) statuses.add(200);

  return {
    method,
    path,
    operation,
    versions,
    answer,
    hasShape: shape !== undefined,
    query: [...query].sort(),
    statuses: [...statuses].sort(),
    comment: leadingDoc(node, file),
    file: file.fileName.slice(ROOT.length + 1),
  };
}

/** The `/** … *\/` comment right before the entry (or before the only entry of its table). */
function leadingDoc(node: ts.Node, file: ts.SourceFile): string | null {
  const text = file.getFullText();
  const own = ts.getLeadingCommentRanges(text, node.pos) ?? [];
  let docs = own.filter((c) => text.startsWith('/**', c.pos));
  if (!docs.length) {
    const array = node.parent;
    if (ts.isArrayLiteralExpression(array) && array.elements.length === 1) {
      let statement: ts.Node = array;
      while (statement.parent && !ts.isVariableStatement(statement) && !ts.isSourceFile(statement.parent)) {
        statement = statement.parent;
      }
      docs = (ts.getLeadingCommentRanges(text, statement.pos) ?? []).filter((c) => text.startsWith('/**', c.pos));
    }
  }
  const last = docs[docs.length - 1];
  if (!last) return null;
  return text
    .slice(last.pos + 3, last.end - 2)
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, ''))
    .join('\n')
    .trim();
}

/**
 * Finds the query parameters a route reads: `<URLSearchParams>.get|has|getAll('<name>')` in its
 * functions and in the project's functions they call, a name passed down as a literal argument too.
 */
class ParamScanner {
  private readonly seen = new Set<string>();

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly out: Set<string>,
  ) {}

  scanValue(node: ts.Node): void {
    if (ts.isIdentifier(node)) this.follow(node, [], new Map(), 0);
    else this.scan(node, new Map(), 0);
  }

  private literal(node: ts.Expression | undefined, bindings: Map<string, string>): string | undefined {
    if (!node) return undefined;
    if (ts.isStringLiteralLike(node)) return node.text;
    if (ts.isIdentifier(node)) return bindings.get(node.text);
    return undefined;
  }

  private scan(root: ts.Node, bindings: Map<string, string>, depth: number): void {
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        if (
          ts.isPropertyAccessExpression(callee) &&
          PARAM_READS.has(callee.name.text) &&
          SEARCH_PARAM_TYPES.has(this.checker.getTypeAtLocation(callee.expression).getSymbol()?.getName() ?? '')
        ) {
          const name = this.literal(node.arguments[0], bindings);
          if (name) this.out.add(name);
        } else {
          const target = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
          this.follow(target, node.arguments, bindings, depth);
        }
      } else if (ts.isIdentifier(node) && !ts.isCallExpression(node.parent) && depth < 6) {
        // A function passed by name (`.map(shapeItem)`).
        const type = this.checker.getTypeAtLocation(node);
        if (type.getCallSignatures().length) this.follow(node, [], bindings, depth);
      }
      node.forEachChild(visit);
    };
    visit(root);
  }

  private follow(target: ts.Node, args: readonly ts.Expression[], bindings: Map<string, string>, depth: number) {
    if (depth > 8) return;
    let symbol =
      target.parent && ts.isShorthandPropertyAssignment(target.parent) && target.parent.name === target
        ? this.checker.getShorthandAssignmentValueSymbol(target.parent)
        : this.checker.getSymbolAtLocation(target);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    const declaration = symbol?.valueDeclaration ?? symbol?.declarations?.[0];
    if (!declaration) return;
    const fileName = declaration.getSourceFile().fileName;
    if (fileName.includes('node_modules') || fileName.endsWith('.d.ts')) return;
    let fn: ts.SignatureDeclaration | undefined;
    if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration)) fn = declaration;
    else if (
      ts.isVariableDeclaration(declaration) &&
      declaration.initializer &&
      (ts.isArrowFunction(declaration.initializer) || ts.isFunctionExpression(declaration.initializer))
    ) {
      fn = declaration.initializer;
    }
    if (!fn || !('body' in fn) || !fn.body) return;
    const inner = new Map<string, string>();
    fn.parameters.forEach((p, i) => {
      const value = this.literal(args[i], bindings);
      if (ts.isIdentifier(p.name) && value !== undefined) inner.set(p.name.text, value);
    });
    const key = `${fileName}:${fn.pos}:${JSON.stringify([...inner])}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.scan(fn.body as ts.Node, inner, depth + 1);
  }
}
