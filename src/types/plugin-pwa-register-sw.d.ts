/** The PWA plugin's service-worker registration module, loaded by src/plugins/lean-client. */
declare module '@docusaurus/plugin-pwa/lib/registerSw.js?after-load';
