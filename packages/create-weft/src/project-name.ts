import validate from 'validate-npm-package-name';
import { CreateWeftError } from './errors.js';

/**
 * Throws unless `name` is valid for a new npm package, with npm's own reasons.
 * @claim tsdoc-cw-project-name
 */
export function assertProjectName(name: string): void {
  const result = validate(name);
  if (result.validForNewPackages) return;
  const problems = [...(result.errors ?? []), ...(result.warnings ?? [])].join('; ');
  const suggestion = name
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  // Only a name npm takes is offered: lower-casing `Http` gives `http`, a core module's name.
  const offered =
    suggestion !== '' && suggestion !== name && validate(suggestion).validForNewPackages;
  throw new CreateWeftError(
    'WEFT_CREATE_INVALID_NAME',
    `project name "${name}": ${problems}; fix: choose a folder name (or pass --name) that npm accepts` +
      (offered ? `, such as "${suggestion}"` : ''),
  );
}
