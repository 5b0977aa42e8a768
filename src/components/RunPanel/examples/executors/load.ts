// What the executors panel's Run loads, as one dynamic import: the panel and the example's run.
export { default as Panel } from '../../Panel';
export { definition } from './run';
