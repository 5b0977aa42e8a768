// What the Triggers page's editor button loads for its route-trigger presets: the editor, and
// the issues plugin's file as the page shows it.
import { editedPluginLoader } from '../../editor/chunk';

export { PluginEditor } from '../../editor/chunk';
export { default as source } from '!!@site/examples/building-plugins/triggers/issues-plugin.ts?raw';
export const loadEditedPlugin = editedPluginLoader();
