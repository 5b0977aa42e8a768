/**
 * The colours diagrams are drawn in. The site's colours are read from src/css/custom.css, the
 * one place they are defined, so a diagram follows the theme when the theme changes. The
 * whitepaper is printed on white paper and uses a light palette of the same hues.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface Palette {
  /** Behind the whole drawing; `none` leaves it transparent. */
  background: string;
  /** Fill of boxes (participants, nodes). */
  surface: string;
  /** Fill of frames and clusters, a step away from the background. */
  surfaceRaised: string;
  /** Lines of boxes and frames. */
  border: string;
  /** Labels. */
  text: string;
  /** Secondary labels, lifelines and replies. */
  muted: string;
  /** Arrows and highlighted nodes. */
  accent: string;
}

/** The custom properties of the site theme each palette entry is read from. */
const SITE_PROPERTIES: Record<Exclude<keyof Palette, 'background'>, string> = {
  surface: '--weft-surface',
  surfaceRaised: '--weft-surface-raised',
  border: '--weft-border',
  text: '--weft-text',
  muted: '--weft-text-muted',
  accent: '--ifm-color-primary',
};

/**
 * Reads the dark site palette from the theme's CSS.
 *
 * @param css - The text of src/css/custom.css.
 * @returns The palette; the background stays transparent so the page shows through.
 * @throws Error naming the custom property that is missing.
 */
export function paletteFromCss(css: string): Palette {
  const read = (property: string): string => {
    const hex = new RegExp(`${property}:\\s*(#[0-9a-fA-F]{3,8})\\s*;`).exec(css)?.[1];
    if (hex === undefined) {
      throw new Error(
        `diagrams: src/css/custom.css defines no hex colour for ${property}; the diagram palette is read from it.`,
      );
    }
    return hex.toLowerCase();
  };
  const entries = Object.entries(SITE_PROPERTIES).map(([key, property]) => [key, read(property)]);
  return { background: 'none', ...Object.fromEntries(entries) } as Palette;
}

/**
 * The site palette, read from the repository's theme.
 *
 * @param siteDir - The repository root.
 * @returns The dark palette.
 */
export function sitePalette(siteDir: string): Palette {
  return paletteFromCss(readFileSync(path.join(siteDir, 'src', 'css', 'custom.css'), 'utf8'));
}

/** For print: dark text and lines on white, the accent darkened until it reads on paper. */
export const printPalette: Palette = {
  background: '#ffffff',
  surface: '#f3f6f4',
  surfaceRaised: '#e8eee9',
  border: '#8a968d',
  text: '#111412',
  muted: '#4a544d',
  accent: '#1a7f47',
};
