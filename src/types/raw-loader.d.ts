// `!!raw-loader!path` imports a file's text, for showing tested example files on pages.
declare module '!!raw-loader!*' {
  const source: string;
  export default source;
}
