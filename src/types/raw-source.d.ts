// `!!@site/<file>?raw` imports a file's text, for showing tested example files on pages: the
// rule in src/plugins/weft-in-browser/ gives such a module Rspack's `asset/source` type, and
// `!!` keeps every other rule's loaders (the TypeScript compiler among them) off it.
declare module '*?raw' {
  const source: string;
  export default source;
}
