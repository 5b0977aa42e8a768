// In a generated project this file is the plugin itself; here it is the getting-started one.
export { AssistantPlugin } from '../../getting-started/assistant-plugin.js';
