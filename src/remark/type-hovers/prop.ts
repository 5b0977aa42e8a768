/**
 * The JSX prop a code block's hover data travels in, from the page (./index.ts puts it on the
 * block's <code>) to src/theme/CodeBlock. Its own module, so the site's client imports no
 * build-time code with it.
 */
export const TYPE_HOVERS_PROP = 'typeHovers';
