import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  Application,
  LogLevel,
  ReflectionKind,
  type DeclarationReflection,
  type ProjectReflection,
} from 'typedoc';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_ENTRY_POINT, API_TSCONFIG, typedocOptions } from '@weft-internal/docs-model/typedoc';
import { coreApiNames, SPECIFIED_API_KIND_COUNTS, type ApiKind } from '../support/core-api';

/** A file of the repository, from its root. */
const readRoot = (file: string): string =>
  readFileSync(path.resolve(__dirname, '../..', file), 'utf8');

const reflectionKinds: Record<ApiKind, ReflectionKind> = {
  classes: ReflectionKind.Class,
  functions: ReflectionKind.Function,
  interfaces: ReflectionKind.Interface,
  'type-aliases': ReflectionKind.TypeAlias,
  variables: ReflectionKind.Variable,
};

describe('the API reference of @weft/core', () => {
  let app: Application;
  let project: ProjectReflection | undefined;
  const messages: string[] = [];

  beforeAll(async () => {
    app = await Application.bootstrapWithPlugins({
      entryPoints: [API_ENTRY_POINT],
      tsconfig: API_TSCONFIG,
      excludePrivate: true,
      excludeInternal: true,
      disableSources: true,
      treatWarningsAsErrors: true,
      validation: { notExported: true, invalidLink: true, notDocumented: false },
      logLevel: 'Warn',
      sort: typedocOptions.sort,
    });
    const log = app.logger.log.bind(app.logger);
    app.logger.log = (message, level) => {
      if (level >= LogLevel.Warn) messages.push(String(message));
      log(message, level);
    };
    project = await app.convert();
    if (project) app.validate(project);
  }, 120_000);

  it('converts and validates with no warning or error', () => {
    expect(project).toBeDefined();
    expect(messages).toEqual([]);
    expect(app.logger.hasWarnings()).toBe(false);
    expect(app.logger.hasErrors()).toBe(false);
  });

  it('lists each name once, with at least as many of each kind as the specification', () => {
    const names = Object.values(coreApiNames).flat();
    expect(new Set(names).size).toBe(names.length);
    for (const [kind, count] of Object.entries(SPECIFIED_API_KIND_COUNTS) as [ApiKind, number][]) {
      expect(coreApiNames[kind].length, kind).toBeGreaterThanOrEqual(count);
    }
  });

  it('lists the exports of every group in source order, as the specification asks: by the file that declares them, then their place in it', () => {
    const groups = project!.groups ?? [];
    expect(groups.map((group) => group.title)).toContain('Classes');
    for (const group of groups) {
      const places = group.children.map((child) => {
        const symbol = project!.getSymbolIdFromReflection(child);
        return { name: child.name, file: symbol?.packagePath ?? '', pos: symbol?.pos ?? -1 };
      });
      const inSourceOrder = [...places].sort((a, b) =>
        a.file === b.file ? a.pos - b.pos : a.file < b.file ? -1 : 1,
      );
      expect(
        places.map((place) => place.name),
        group.title,
      ).toEqual(inSourceOrder.map((place) => place.name));
    }
    const classes = groups.find((group) => group.title === 'Classes')!.children.map((c) => c.name);
    // Declared in errors/, between files of capabilities/ and memory/: not last, as by name.
    expect(classes.indexOf('WeftError')).toBeLessThan(classes.length - 1);
  });

  it('keeps the members of a class in the order of its source', () => {
    const runtime = project!.getChildByName('Runtime') as DeclarationReflection;
    const positions = (runtime.children ?? []).map(
      (member) => project!.getSymbolIdFromReflection(member)?.pos ?? -1,
    );
    expect(positions.length).toBeGreaterThan(3);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const names = (runtime.children ?? []).map((member) => member.name);
    expect(names, 'a source order that happens to be alphabetical proves nothing').not.toEqual(
      [...names].sort((a, b) => a.localeCompare(b)),
    );
  });

  it('documents every export of @weft/core, and ServerManager and serverOf of @weft/core/node [claim:cg-api-reference-entry] [claim:index-api-reference-every-export] [claim:core-readme-api-reference]', () => {
    expect(API_ENTRY_POINT).toBe('packages/core/src/api-reference.ts');
    const documented = new Set(project!.children?.map((child) => child.name));
    // Names only: no lib and no types are needed to list a module's exports, and loading them
    // would double the time this takes.
    const source = (entry: string): string =>
      path.resolve(__dirname, '../../packages/core/src', entry);
    const program = ts.createProgram([source('index.ts'), source('node.ts')], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      noEmit: true,
      noLib: true,
      types: [],
    });
    const checker = program.getTypeChecker();
    const exportsOf = (entry: string): string[] => {
      const module = checker.getSymbolAtLocation(program.getSourceFile(source(entry))!)!;
      return checker.getExportsOfModule(module).map((symbol) => symbol.name);
    };
    const core = exportsOf('index.ts');
    expect(core.length).toBeGreaterThan(50);
    expect(core.filter((name) => !documented.has(name))).toEqual([]);
    const node = exportsOf('node.ts');
    expect(node).toEqual(expect.arrayContaining(['ServerManager', 'serverOf']));
    expect(node.filter((name) => !documented.has(name))).toEqual([]);
  });

  it('exports exactly the names the specification lists', () => {
    for (const [kind, names] of Object.entries(coreApiNames) as [ApiKind, readonly string[]][]) {
      const actual = project!.getChildrenByKind(reflectionKinds[kind]).map((child) => child.name);
      expect(actual.sort()).toEqual([...names].sort());
    }
    expect(project!.children?.length).toBe(Object.values(coreApiNames).flat().length);
  });

  it('documents every export, with an example on every class and function [claim:cg-tsdoc-required-tags]', () => {
    for (const child of project!.children ?? []) {
      const comment = child.comment ?? child.signatures?.[0]?.comment;
      expect(comment?.summary.length, `${child.name} has no TSDoc summary`).toBeGreaterThan(0);
      if (child.kind === ReflectionKind.Class || child.kind === ReflectionKind.Function) {
        expect(comment?.getTag('@example'), `${child.name} has no @example`).toBeDefined();
      }
    }
  });

  it('documents the parameters and return value of every public function and method [claim:cg-tsdoc-required-tags]', () => {
    const missing: string[] = [];
    const signatures = project!
      .getReflectionsByKind(
        ReflectionKind.Function | ReflectionKind.Method | ReflectionKind.Constructor,
      )
      .filter((reflection) => !reflection.flags.isPrivate && !reflection.flags.isExternal)
      .flatMap((reflection) => (reflection as DeclarationReflection).signatures ?? []);
    for (const signature of signatures) {
      // Inherited members are documented where they are declared.
      if (signature.inheritedFrom || signature.parent.inheritedFrom) continue;
      const name = signature.getFriendlyFullName();
      const isConstructor = signature.kindOf(ReflectionKind.ConstructorSignature);
      // An implicit constructor with no parameters has nothing to document.
      if (isConstructor && !signature.parameters?.length) continue;
      if (!signature.comment?.summary.length && !signature.parent.comment?.summary.length) {
        missing.push(`${name}: summary`);
      }
      for (const parameter of signature.parameters ?? []) {
        if (!parameter.comment?.summary.length)
          missing.push(`${name}: parameter ${parameter.name}`);
      }
      const returns = signature.type?.toString() ?? 'void';
      const returnsNothing = [
        'void',
        'Promise<void>',
        'void | Promise<void>',
        'undefined',
      ].includes(returns);
      if (isConstructor || returnsNothing) continue;
      if (!signature.comment?.getTag('@returns')) missing.push(`${name}: @returns`);
    }
    expect(missing).toEqual([]);
  });
});

describe('what the API reference leaves out', () => {
  it('publishes @weft/core/internal as an entry point the API reference leaves out [claim:stability-core-internal]', () => {
    const core = JSON.parse(readRoot('packages/core/package.json')) as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(core.exports)).toContain('./internal');
    // The API reference is generated from the main entry point and the node one alone, which do
    // not re-export it.
    const typedoc = readRoot('libs/docs-model/typedoc.ts');
    expect(typedoc).toContain("API_ENTRY_POINT = 'packages/core/src/api-reference.ts'");
    expect(typedoc).toMatch(/entryPoints: \[API_ENTRY_POINT\]/);
    for (const entry of ['api-reference', 'index', 'node']) {
      expect(readRoot(`packages/core/src/${entry}.ts`)).not.toMatch(/from '\.\/internal\.js'/);
    }
    expect(readRoot('packages/core/src/internal.ts')).toContain('Not part of the public API');
  });
});
