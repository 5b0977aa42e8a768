/**
 * Local Docusaurus plugin: at the end of a build, prints how many code blocks got hover types
 * and the time src/remark/type-hovers spent reading them from TypeScript, so the cost of the
 * step shows in every build log.
 */
import type { Plugin } from '@docusaurus/types';
import { typeHoverTotals } from '../../remark/type-hovers/stats';

export default function pluginTypeHoversReport(): Plugin {
  return {
    name: 'weft-type-hovers-report',
    postBuild() {
      const { blocks, milliseconds } = typeHoverTotals();
      console.info(
        `[hover types] ${blocks} TypeScript blocks given hover types in ${(milliseconds / 1000).toFixed(1)} s`,
      );
    },
  };
}
