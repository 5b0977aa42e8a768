// The options module @easyops-cn/docusaurus-search-local generates at build time; only
// src/plugins/site-wide-search re-exports it, without reading any option, so its shape is open.
declare module '@generated/@easyops-cn/docusaurus-search-local/default/generated.js';
