// What the Triggers page's editor button loads for its start-trigger preset: the editor, and the
// heartbeat plugin's file as the page shows it.
import { editedPluginLoader } from '../../editor/chunk';

export { PluginEditor } from '../../editor/chunk';
export { default as source } from '!!@site/examples/building-plugins/triggers/heartbeat-plugin.ts?raw';
export const loadEditedPlugin = editedPluginLoader();
