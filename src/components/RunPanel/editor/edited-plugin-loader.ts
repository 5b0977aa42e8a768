/**
 * The loader an example's editor uses, with the Weft core the panel's run already loaded, so an
 * edited plugin extends the same `Plugin` class the runtime checks against. No DOM and no React:
 * the unit tests use it as the page does.
 */
import * as core from '@weft/core';
import { loadPluginSource, type LoadedSource } from './load-plugin-source';

/**
 * Turns the reader's code into the plugin class a run uses, or a problem; `constructorArgs` are
 * what the run will construct it with (see `EditablePlugin.constructorArgs`).
 */
export type EditedPluginLoader = (
  source: string,
  exportName: string,
  constructorArgs?: readonly unknown[],
) => LoadedSource<core.Plugin>;

/**
 * The loader for one example: its code may import `@weft/core` and the modules the example's
 * file imports besides it (zod, for a plugin that declares its schemas), nothing else. Each
 * module given here is one the run's chunk already holds, so the editor adds no second copy.
 */
export function editedPluginLoader(
  otherModules: Readonly<Record<string, unknown>> = {},
): EditedPluginLoader {
  const modules = { '@weft/core': core, ...otherModules };
  return (source, exportName, constructorArgs) =>
    loadPluginSource(source, {
      exportName,
      modules,
      base: core.Plugin,
      ...(constructorArgs ? { constructorArgs } : {}),
    });
}
