// What the getting-started panel's Run loads, as one dynamic import: the panel and the example's run.
// First: zod reads the setting as schemas are created (see the module).
import '../zod-jitless';
export { default as Panel } from '../Panel';
export { definition } from '../run-getting-started';
