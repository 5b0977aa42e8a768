/**
 * Local Docusaurus plugin: adds the PWA head tags (manifest, theme colour, Apple icons and the
 * Apple startup images) to every page.
 *
 * plugin-pwa could add them through its `pwaHead` option, but Docusaurus serialises every
 * plugin's options into the client bundle, and the 34 startup-image tags alone are about 9 KB
 * of JavaScript each first visit would download and never use. Read here, on the server, they
 * cost only the HTML.
 */
import type { Plugin } from '@docusaurus/types';
import { pwaHeadTags } from '../../pwa/assets';

export default function pluginPwaHead(): Plugin {
  return {
    name: 'weft-pwa-head',
    injectHtmlTags() {
      return {
        headTags: pwaHeadTags().map(({ tagName, ...attributes }) => ({ tagName, attributes })),
      };
    },
  };
}
