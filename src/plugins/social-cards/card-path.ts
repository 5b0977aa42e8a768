/**
 * Where the social card of a route is served. Shared by the build step that draws the cards
 * (./index.ts) and the head tags that point at them (src/theme/SiteMetadata), so both agree.
 */

export const SOCIAL_CARD_DIR = 'img/social';
export const SOCIAL_CARD_WIDTH = 1200;
export const SOCIAL_CARD_HEIGHT = 630;

/**
 * "/" → "/img/social/index.png", "/docs/getting-started/" → "/img/social/docs/getting-started.png",
 * "/404.html" → "/img/social/404.png".
 */
export function socialCardPath(routePath: string): string {
  const name = routePath.replace(/\.html$/, '').replace(/^\/+|\/+$/g, '') || 'index';
  return `/${SOCIAL_CARD_DIR}/${name}.png`;
}
