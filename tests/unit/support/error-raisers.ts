/**
 * Where the sources raise each error code, found in their syntax trees: every string literal
 * that is a code, outside the registries, where it names the code of an error being made (an
 * argument, a `code:` property, a return value) rather than one being recognised (`WeftError.is`,
 * a comparison, a `case`). Each is attributed to the function, method or class around it, named
 * as a registry's `raisers` names it: `<package folder>/src/<file>#<name>`.
 */
import { relative } from 'node:path';
import ts from 'typescript';
import { PACKAGES_DIRECTORY, REPOSITORY_ROOT } from '@weft-internal/docs-model/error-registries';
import type { SourceFile } from './package-sources';

const CODE = /^WEFT_[A-Z0-9_]+$/;

/** Whether a code's literal recognises an error instead of making one. */
function recognises(literal: ts.Node): boolean {
  let node = literal;
  // `WeftError.is<string>(error, 'X')` and `(code as string) === 'X'`: step out of wrappers.
  while (ts.isParenthesizedExpression(node.parent) || ts.isAsExpression(node.parent)) {
    node = node.parent;
  }
  const parent = node.parent;
  if (ts.isLiteralTypeNode(parent)) return true;
  // `new Set(['X', 'Y'])`: a set of codes to look for.
  if (
    ts.isArrayLiteralExpression(parent) &&
    ts.isNewExpression(parent.parent) &&
    ts.isIdentifier(parent.parent.expression) &&
    parent.parent.expression.text === 'Set'
  ) {
    return true;
  }
  if (ts.isCaseClause(parent)) return true;
  if (ts.isBinaryExpression(parent)) {
    const kind = parent.operatorToken.kind;
    return (
      kind === ts.SyntaxKind.EqualsEqualsEqualsToken ||
      kind === ts.SyntaxKind.ExclamationEqualsEqualsToken ||
      kind === ts.SyntaxKind.EqualsEqualsToken ||
      kind === ts.SyntaxKind.ExclamationEqualsToken
    );
  }
  if (ts.isCallExpression(parent) && parent.arguments.includes(node as ts.Expression)) {
    const callee = parent.expression;
    return ts.isPropertyAccessExpression(callee) && callee.name.text === 'is';
  }
  return false;
}

function nameOf(node: ts.Node): string | undefined {
  const named = node as { name?: ts.Node };
  if (
    named.name !== undefined &&
    (ts.isIdentifier(named.name) || ts.isPrivateIdentifier(named.name))
  ) {
    return named.name.text;
  }
  return undefined;
}

/** The innermost named function, method or class around a node, as `Class.method` or `name`. */
function ownerOf(literal: ts.Node): string {
  let function_: string | undefined;
  for (let node = literal.parent; !ts.isSourceFile(node); node = node.parent) {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const className = nameOf(node) ?? '(class)';
      return function_ === undefined ? className : `${className}.${function_}`;
    }
    if (function_ !== undefined) continue;
    if (ts.isConstructorDeclaration(node)) function_ = 'constructor';
    else if (
      ts.isMethodDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node) ||
      ts.isPropertyDeclaration(node)
    ) {
      function_ = nameOf(node);
    } else if (ts.isFunctionDeclaration(node)) {
      function_ = nameOf(node);
    } else if (
      ts.isVariableDeclaration(node) &&
      node.initializer !== undefined &&
      (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
    ) {
      function_ = nameOf(node);
    }
    // A function that is a module's own (not a class's) is named by itself.
    if (function_ !== undefined && !insideClass(node)) return function_;
  }
  return function_ ?? '(module)';
}

function insideClass(node: ts.Node): boolean {
  for (let parent = node.parent; !ts.isSourceFile(parent); parent = parent.parent) {
    if (ts.isClassDeclaration(parent) || ts.isClassExpression(parent)) return true;
  }
  return false;
}

/**
 * The places that raise each code, by code: `memory-sqlite/src/provider.ts#SqliteMemoryProvider.init`.
 *
 * @param sources - The package sources to read.
 * @param skip - Files to leave out (the registries), by path from the repository root.
 * @param notCodes - `WEFT_` strings that are not codes, such as environment variables.
 */
export function raisersByCode(
  sources: readonly SourceFile[],
  skip: ReadonlySet<string>,
  notCodes: ReadonlySet<string>,
): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  for (const { path, text } of sources) {
    if (skip.has(path)) continue;
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const where = relative(PACKAGES_DIRECTORY, `${REPOSITORY_ROOT}/${path}`).split('\\').join('/');
    const visit = (node: ts.Node): void => {
      if (
        (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) &&
        CODE.test(node.text) &&
        !notCodes.has(node.text) &&
        !recognises(node)
      ) {
        const raisers = found.get(node.text) ?? new Set<string>();
        raisers.add(`${where}#${ownerOf(node)}`);
        found.set(node.text, raisers);
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}
