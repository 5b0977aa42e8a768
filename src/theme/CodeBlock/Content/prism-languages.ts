/**
 * Registers the extra Prism languages listed in themeConfig.prism.additionalLanguages on the
 * Prism instance code blocks highlight with. The theme does this from a client module, which
 * would load Prism on every page; src/plugins/lean-client removes that module, and the
 * highlighter (./highlighted-markup.ts) imports this file, so the work is done only where code is
 * highlighted.
 */
import { Prism } from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';

prismIncludeLanguages(Prism);
