/**
 * The import graph of a folder of TypeScript sources: which file imports which, type-only
 * imports and re-exports included (a type cycle is still a cycle a reader has to untangle).
 * tests/unit/core-import-graph.test.ts checks the core's graph with it;
 * `npm run bench -- core-graph` prints the graph in DOT (render it with `dot -Tsvg`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** File (relative to the folder, `/`-separated) → the files of the folder it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

/** Reads every `.ts` file under `dir` and returns its relative imports inside `dir`. */
export function importGraph(dir: string): ImportGraph {
  const files = sourceFiles(dir);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, false);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      // Sources import each other with NodeNext's `.js` suffix.
      .map((specifier) =>
        path.posix.join(path.posix.dirname(file), specifier.replace(/\.js$/, '.ts')),
      )
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)].sort());
  }
  return graph;
}

/**
 * The groups of files that import one another, directly or through others (strongly connected
 * components with more than one file), each sorted, by Tarjan's algorithm.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(target)!));
      } else if (onStack.has(target)) {
        lowLink.set(file, Math.min(lowLink.get(file)!, index.get(target)!));
      }
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return groups;
}

/** The graph in Graphviz DOT, files of one cycle drawn in red. */
export function toDot(graph: ImportGraph): string {
  const inCycle = new Set(importCycles(graph).flat());
  const lines = ['digraph imports {', '  rankdir=BT;', '  node [shape=box, fontsize=10];'];
  for (const file of graph.keys()) {
    lines.push(`  "${file}"${inCycle.has(file) ? ' [color=red]' : ''};`);
  }
  for (const [file, targets] of graph) {
    for (const target of targets) lines.push(`  "${file}" -> "${target}";`);
  }
  lines.push('}');
  return lines.join('\n');
}
