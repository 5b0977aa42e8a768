// What the chat tutorial's editor button loads: the editor, and the conversation plugin's file as
// the page shows it. The file imports its history reader from beside it; the run's chunk holds it.
import * as history from '@site/examples/tutorial-chat/history';
import { editedPluginLoader } from '../../editor/chunk';

export { PluginEditor } from '../../editor/chunk';
export { default as source } from '!!@site/examples/tutorial-chat/conversation-plugin.ts?raw';
export const loadEditedPlugin = editedPluginLoader({ './history.js': history });
