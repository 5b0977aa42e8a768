/**
 * Sidebar of the API reference docs instance (routeBasePath /api).
 *
 * The entries come from the sidebar that typedoc-docusaurus-theme writes next to
 * the generated markdown in api/, so it always lists exactly what the core
 * package exports. Under `npm start` without DEV_API_PAGES=true the instance reads the stand-in
 * folder instead (src/config/api-in-dev.ts), whose generated sidebar is empty.
 */
import { createRequire } from 'node:module';
import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';
import { apiSidebarFile } from './src/config/api-in-dev';
import { parseSiteEnv } from './src/config/env';

type SidebarItems = Extract<SidebarsConfig[string], unknown[]>;

const require = createRequire(import.meta.url);
const generated = require(`./${apiSidebarFile(parseSiteEnv())}`) as SidebarItems;

const sidebars: SidebarsConfig = {
  api: [{ type: 'doc', id: 'index', label: 'Overview' }, ...generated],
};

export default sidebars;
