/**
 * Registers the extra Prism languages listed in themeConfig.prism.additionalLanguages on the
 * Prism instance code blocks highlight with. The theme does this from a client module, which
 * would load Prism on every page; src/plugins/lean-client removes that module, and importing
 * this file from the code block does the same work only where code is shown.
 */
import { Prism } from 'prism-react-renderer';
import prismIncludeLanguages from '@theme/prism-include-languages';

prismIncludeLanguages(Prism);
