// What Getting started's editor button loads: the editor, and the plugin file the page shows.
import { editedPluginLoader } from '../../editor/chunk';

export { PluginEditor } from '../../editor/chunk';
export { default as source } from '!!@site/examples/getting-started/assistant-plugin.ts?raw';
export const loadEditedPlugin = editedPluginLoader();
