/**
 * Creates Weft agent projects: `npm create weft@latest my-agent` runs the command line; this
 * module exposes the same work to scripts and tests.
 *
 * @packageDocumentation
 */
export { createProject, type CreateProjectOptions, type CreatedProject } from './create-project.js';
export {
  DEFAULT_MEMORY,
  DEFAULT_MODEL,
  MEMORY_CHOICES,
  MODEL_CHOICES,
  type MemoryChoice,
  type ModelChoice,
} from './choices.js';
export { CreateWeftError, type CreateWeftErrorCode } from './errors.js';
export { assertProjectName } from './project-name.js';
export {
  findWorkspaceRoot,
  packWorkspacePackages,
  weftPackagesFor,
  type PackedPackage,
} from './weft-packages.js';
export { PACKAGE_MANAGERS, type PackageManager } from './package-manager.js';
