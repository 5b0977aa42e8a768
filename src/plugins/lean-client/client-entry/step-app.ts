// Step 3 of client-entry: the app (theme layout, client modules, site data) and what starts it.
export { HelmetProvider } from 'react-helmet-async';
export { default as App } from '@docusaurus/core/lib/client/App';
export { default as preload } from '@docusaurus/core/lib/client/preload';
export { default as docusaurus } from '@docusaurus/core/lib/client/docusaurus';
