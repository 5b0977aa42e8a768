/**
 * The parts of a build, each read from a line of its output: the generators' own timings
 * (tooling/assets/generate-assets.ts) and Docusaurus's performance log, which every build of
 * this bench turns on (DOCUSAURUS_PERF_LOGGER). The generators run side by side, and the hover
 * types in a process of their own beside them and Docusaurus's loading: the parts overlap, so
 * they do not add up to the build.
 */
export const BUILD_PARTS: readonly { part: string; line: RegExp }[] = [
  { part: 'hover types (own process)', line: /^hover types: ([\d.]+) s$/m },
  { part: 'PWA icons and startup images', line: /^PWA assets: ([\d.]+) s$/m },
  { part: 'whitepaper PDF', line: /^whitepaper: ([\d.]+) s$/m },
  { part: 'diagrams', line: /^diagrams: ([\d.]+) s$/m },
  {
    part: 'loading: plugins (TypeDoc among them), content, Git history',
    line: /\[PERF\] Build > en > Load site - ([\d.]+ (?:ms|seconds))/,
  },
  {
    part: 'bundling (and waiting for hover types)',
    line: /\[PERF\] Build > en > Bundling with rspack - ([\d.]+ (?:ms|seconds))/,
  },
  { part: 'static rendering', line: /\[PERF\] Build > en > SSG - ([\d.]+ (?:ms|seconds))/ },
  {
    part: 'postBuild: search index, Markdown copies, social cards, PWA',
    line: /\[PERF\] Build > en > postBuild\(\) - ([\d.]+ (?:ms|seconds))/,
  },
];

/** The parts of BUILD_PARTS that `output` names, in seconds. */
export function buildParts(output: string): Map<string, number> {
  // The performance log colours its figures.
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const parts = new Map<string, number>();
  for (const { part, line } of BUILD_PARTS) {
    const figure = line.exec(plain)?.[1];
    if (figure === undefined) continue;
    const value = Number.parseFloat(figure);
    parts.set(part, figure.endsWith('ms') ? value / 1000 : value);
  }
  return parts;
}
