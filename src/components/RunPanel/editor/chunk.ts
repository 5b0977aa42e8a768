/**
 * What the editor button loads, besides the example's file and loader (../examples/<id>/editor.ts):
 * CodeMirror and sucrase.
 */
import type { EditedPluginLoader } from './edited-plugin-loader';
import PluginEditor from './PluginEditor';

export { PluginEditor };
export { editedPluginLoader } from './edited-plugin-loader';

/** An example's editor module, ../examples/<id>/editor.ts. */
export interface EditorChunk {
  /** The text of the plugin’s file, as the repository has it. */
  source: string;
  PluginEditor: typeof PluginEditor;
  loadEditedPlugin: EditedPluginLoader;
}
