/**
 * The docs sidebar, as Docusaurus reads it. The reading order itself lives in the docs model
 * (libs/docs-model/sidebar-order.ts), which @weft/mcp-docs's data build reads too.
 */
import sidebars from '@weft-internal/docs-model/sidebar-order';

export default sidebars;
