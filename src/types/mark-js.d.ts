/** mark.js's ES2015 build, loaded on demand by src/plugins/lean-client/lazy-mark.ts. */
declare module 'mark.js/dist/mark.es6.js' {
  const Mark: unknown;
  export default Mark;
}
