/**
 * Build-time switches, read from the environment once and validated here so the
 * rest of the configuration never reads `process.env` directly.
 *
 * - `TYPEDOC=false` skips API reference generation for quick local builds: the
 *   previous `api/` output is reused, or a one-page stand-in is written. Never set
 *   it for a production build.
 * - `FASTER=false` turns Docusaurus Faster (Rspack, SWC, Lightning CSS) off, to
 *   compare build times or rule it out when debugging a bundling problem.
 * - `DEV_API_PAGES=true` serves the API reference's generated pages under `docusaurus start`,
 *   which otherwise shows a one-page stand-in at /api/ (src/config/api-in-dev.ts). A build
 *   always has them; the flag changes nothing there.
 */

export interface SiteEnv {
  /** Generate the API reference with TypeDoc. */
  typedoc: boolean;
  /** Use Docusaurus Faster. */
  faster: boolean;
  /** True under `docusaurus start`, where TypeDoc runs in watch mode. */
  devServer: boolean;
  /** Under `docusaurus start`, serve the generated API pages instead of a stand-in. */
  devApiPages: boolean;
}

function readBoolean(env: NodeJS.ProcessEnv, name: string, defaultValue: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') {
    return defaultValue;
  }
  const value = raw.trim().toLowerCase();
  if (value === 'true' || value === '1') {
    return true;
  }
  if (value === 'false' || value === '0') {
    return false;
  }
  throw new Error(
    `Environment variable ${name} must be "true" or "false" (or 1/0), got "${raw}". Unset it to use the default (${String(defaultValue)}).`,
  );
}

export function parseSiteEnv(
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
): SiteEnv {
  return {
    typedoc: readBoolean(env, 'TYPEDOC', true),
    faster: readBoolean(env, 'FASTER', true),
    devServer: argv.slice(2).includes('start'),
    devApiPages: readBoolean(env, 'DEV_API_PAGES', false),
  };
}
