/**
 * Prints the import graph of a folder of TypeScript sources in DOT, the core's by default
 * (`npm run bench -- core-graph [folder]`); render it with `dot -Tsvg`.
 */
import { importGraph, toDot } from '../tooling/import-graph';

console.log(toDot(importGraph(process.argv[2] ?? 'packages/core/src')));
