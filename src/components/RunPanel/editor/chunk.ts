/**
 * What the editor button loads, besides the example's file (./load/<example>.ts): CodeMirror,
 * sucrase, and the loader that runs the reader's code with the Weft core the panel's run already
 * loaded, so an edited plugin extends the same `Plugin` class the runtime checks against.
 */
import * as core from '@weft/core';
import { loadPluginSource, type LoadedSource } from './load-plugin-source';
import PluginEditor from './PluginEditor';

export { PluginEditor };

/** Loads the reader's code; its imports resolve to `@weft/core` only. */
export function loadEditedPlugin(source: string, exportName: string): LoadedSource<core.Plugin> {
  return loadPluginSource(source, {
    exportName,
    modules: { '@weft/core': core },
    base: core.Plugin,
  });
}

/** An example's editor module, ./load/<example>.ts. */
export interface EditorChunk {
  /** The text of the example's plugin file, as the page shows it. */
  source: string;
  PluginEditor: typeof PluginEditor;
  loadEditedPlugin: typeof loadEditedPlugin;
}
