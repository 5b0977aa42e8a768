/**
 * Sidebar of the API reference docs instance (routeBasePath /api).
 *
 * The entries come from the sidebar that typedoc-docusaurus-theme writes next to
 * the generated markdown in api/, so it always lists exactly what the core
 * package exports.
 */
import { createRequire } from 'node:module';
import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';
import { API_OUT_DIR, API_SIDEBAR_FILE } from './src/config/typedoc';

type SidebarItems = Extract<SidebarsConfig[string], unknown[]>;

const require = createRequire(import.meta.url);
const generated = require(`./${API_OUT_DIR}/${API_SIDEBAR_FILE}`) as SidebarItems;

const sidebars: SidebarsConfig = {
  api: [{ type: 'doc', id: 'index', label: 'Overview' }, ...generated],
};

export default sidebars;
