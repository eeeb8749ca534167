import { readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { gate, GATES, type Gate } from '../../rest-compat/gates.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REST_DIR = join(ROOT, 'rest-compat') + sep;
const GENERATED_DIR = join(REST_DIR, 'generated') + sep;

/**
 * A TypeScript program over the route table in which every gate is decided for v5: the source of
 * rest-compat/ is rewritten before type checking, each `gate('<name>')` / `gate(version, '<name>')`
 * call replaced by v5's value, and conditionals, `if`s and `&&`/`||` on a decided condition reduced
 * to the branch v5 takes. The checker then infers each shaper's v5 answer: a field a gate removes in
 * v5 is absent, one it keeps is required (TypeScript alone would make both optional).
 */
export function createV5Program(rootFiles: string[]): ts.Program {
  const configPath = join(ROOT, 'tsconfig.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const options: ts.CompilerOptions = { ...parsed.options, noEmit: true };
  const host = ts.createCompilerHost(options, true);
  const original = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const normalized = fileName.split('/').join(sep);
    if (normalized.startsWith(REST_DIR) && !normalized.startsWith(GENERATED_DIR) && fileName.endsWith('.ts')) {
      const text = readFileSync(fileName, 'utf8');
      return ts.createSourceFile(fileName, specializeForV5(fileName, text), languageVersion, true);
    }
    return original(fileName, languageVersion, onError, shouldCreate);
  };
  return ts.createProgram({ rootNames: rootFiles, options, host });
}

const isGateName = (name: string): name is Gate => Object.prototype.hasOwnProperty.call(GATES, name);

/** The v5 value of a gate call, or undefined when the node is not one. */
function gateCall(node: ts.Node): boolean | undefined {
  if (!ts.isCallExpression(node)) return undefined;
  const callee = node.expression;
  const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
  if (name !== 'gate') return undefined;
  const last = node.arguments[node.arguments.length - 1];
  if (!last || !ts.isStringLiteralLike(last) || !isGateName(last.text)) return undefined;
  return gate('v5', last.text);
}

/** The source text with v5's gates decided (see createV5Program). */
export function specializeForV5(fileName: string, text: string): string {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const scopes: Map<string, boolean>[] = [new Map()];

  const known = (node: ts.Expression): boolean | undefined => {
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (ts.isParenthesizedExpression(node)) return known(node.expression);
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.ExclamationToken) {
      const inner = known(node.operand);
      return inner === undefined ? undefined : !inner;
    }
    if (ts.isIdentifier(node)) {
      for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i]!.has(node.text)) return scopes[i]!.get(node.text);
      return undefined;
    }
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      if (op === ts.SyntaxKind.AmpersandAmpersandToken || op === ts.SyntaxKind.BarBarToken) {
        const and = op === ts.SyntaxKind.AmpersandAmpersandToken;
        const left = known(node.left);
        const right = known(node.right);
        if (left === !and || right === !and) return !and;
        if (left === and && right === and) return and;
      }
      return undefined;
    }
    return gateCall(node);
  };

  /** Whether a statement (as rendered: decided `if`s reduced) always leaves its block. */
  const terminates = (node: ts.Statement): boolean => {
    if (ts.isReturnStatement(node) || ts.isThrowStatement(node)) return true;
    if (ts.isBlock(node)) return node.statements.length > 0 && terminates(node.statements[node.statements.length - 1]!);
    if (ts.isIfStatement(node)) {
      const v = known(node.expression);
      if (v === true) return terminates(node.thenStatement);
      if (v === false) return node.elseStatement ? terminates(node.elseStatement) : false;
      return node.elseStatement ? terminates(node.thenStatement) && terminates(node.elseStatement) : false;
    }
    return false;
  };

  const statements = (list: readonly ts.Statement[], out: string[]) => {
    for (const statement of list) {
      out.push(text.slice(statement.pos, statement.getStart(file)) + render(statement));
      if (ts.isVariableStatement(statement) && statement.declarationList.flags & ts.NodeFlags.Const) {
        for (const d of statement.declarationList.declarations) {
          if (ts.isIdentifier(d.name) && d.initializer) {
            const v = known(d.initializer);
            if (v !== undefined) scopes[scopes.length - 1]!.set(d.name.text, v);
          }
        }
      }
      if (terminates(statement)) break;
    }
  };

  const render = (node: ts.Node): string => {
    if (ts.isExpression(node)) {
      const decided = gateCall(node);
      if (decided !== undefined) return String(decided);
    }
    if (ts.isConditionalExpression(node)) {
      const v = known(node.condition);
      if (v !== undefined) return `(${render(v ? node.whenTrue : node.whenFalse)})`;
    }
    if (ts.isIfStatement(node)) {
      const v = known(node.expression);
      if (v === true) return render(node.thenStatement);
      if (v === false) return node.elseStatement ? render(node.elseStatement) : ';';
    }
    if (ts.isBlock(node)) {
      scopes.push(new Map());
      const out: string[] = [];
      statements(node.statements, out);
      scopes.pop();
      return `{\n${out.join('\n')}\n}`;
    }
    return splice(node);
  };

  /** The node's text with its children rendered. */
  const splice = (node: ts.Node): string => {
    const start = node.getStart(file);
    let out = '';
    let at = start;
    node.forEachChild((child) => {
      const childStart = child.getStart(file);
      if (childStart < at) return; // JSDoc and other trivia nodes
      const rendered = render(child);
      const original = text.slice(childStart, child.end);
      if (rendered === original) return;
      out += text.slice(at, childStart) + rendered;
      at = child.end;
    });
    return out + text.slice(at, node.end);
  };

  const out: string[] = [];
  statements(file.statements, out);
  return out.join('\n');
}
