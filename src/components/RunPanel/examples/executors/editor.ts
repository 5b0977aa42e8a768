// What the calendar example's editor button loads (Executors, How a task runs): the editor, and
// the plugin file the Executors page shows. The file declares its schemas with zod.
import * as zod from 'zod';
import { editedPluginLoader } from '../../editor/chunk';

export { PluginEditor } from '../../editor/chunk';
export { default as source } from '!!@site/examples/building-plugins/executors/calendar-plugin.ts?raw';
export const loadEditedPlugin = editedPluginLoader({ zod });
