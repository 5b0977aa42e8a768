/** nprogress itself, loaded after the page by src/plugins/lean-client/lazy-nprogress.ts. */
declare module 'nprogress/nprogress.js?after-load' {
  const NProgress: unknown;
  export default NProgress;
}
