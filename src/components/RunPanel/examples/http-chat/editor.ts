// What the HTTP chat page's editor button loads: the editor, and `ChatPlugin`'s own source as the
// package ships it. The file imports its siblings, zod and two of core's internal helpers; the
// run's chunk already holds each of them (the site builds the packages from their sources).
// Only those helpers of `@weft/core/internal`: the rest of it serves Node's HTTP server (node:net).
import { errorDocsUrl, unstorableText } from '@weft/core/internal';
import * as chatAccess from '@site/packages/plugin-chat/src/chat-access';
import * as chatReply from '@site/packages/plugin-chat/src/chat-reply';
import * as errors from '@site/packages/plugin-chat/src/errors';
import * as zod from 'zod';
import { editedPluginLoader } from '../../editor/chunk';

export { PluginEditor } from '../../editor/chunk';
export { default as source } from '!!@site/packages/plugin-chat/src/chat-plugin.ts?raw';
export const loadEditedPlugin = editedPluginLoader({
  '@weft/core/internal': { errorDocsUrl, unstorableText },
  zod,
  './chat-access.js': chatAccess,
  './chat-reply.js': chatReply,
  './errors.js': errors,
});
