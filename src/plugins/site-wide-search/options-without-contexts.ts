/**
 * The search plugin's generated options as the navbar search box sees them: every option as
 * configured, except that there are no search contexts, so the box searches the whole site.
 * See ./index.ts.
 */
export * from '@generated/@easyops-cn/docusaurus-search-local/default/generated.js';

export const searchContextByPaths = null;
