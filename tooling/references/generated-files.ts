/**
 * What every generated reference file should hold, computed from the code without writing
 * anything: the generator writes it, the tests compare it with what is committed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import {
  CONFIGURATION_PAGE_END,
  CONFIGURATION_PAGE_START,
  configurationSections,
} from './configuration-page';
import {
  loadErrorRegistries,
  REPOSITORY_ROOT,
  type LoadedRegistry,
} from '@weft-internal/docs-model/error-registries';
import {
  CODE_UNION_END,
  CODE_UNION_START,
  codeUnion,
  codeUnionName,
  ERRORS_PAGE_END,
  ERRORS_PAGE_START,
  errorSections,
} from './errors-page';
import {
  LEAN_CLIENT_SECTION_END,
  LEAN_CLIENT_SECTION_START,
  leanClientSection,
} from './lean-client-table';
import { replaceBetweenHeadings, replaceBetweenMarkers } from './markdown-sections';

/** A file and the text it should have. */
export interface GeneratedFile {
  readonly file: string;
  readonly text: string;
}

export const ERRORS_PAGE = join(REPOSITORY_ROOT, 'docs', 'reference', 'errors.md');
export const CONFIGURATION_PAGE = join(REPOSITORY_ROOT, 'docs', 'reference', 'configuration.md');
export const CONTRIBUTING_GUIDE = join(REPOSITORY_ROOT, 'docs', 'contributing-guide.md');

async function formatted(file: string, text: string): Promise<string> {
  const options = await resolveConfig(file);
  return format(text, { ...options, filepath: file });
}

/** The errors file of one registry, with its code union block written from the registry. */
async function typeFile({ registry, registryFile: file }: LoadedRegistry): Promise<string> {
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf(CODE_UNION_START);
  if (start === -1) {
    throw new Error(
      `${file}: put the code union between "${CODE_UNION_START}" and "${CODE_UNION_END}" lines, for the generator to write it from the registry`,
    );
  }
  const block = current.slice(start, current.indexOf(CODE_UNION_END));
  const name = codeUnionName(block, file);
  return formatted(
    file,
    replaceBetweenMarkers(
      current,
      CODE_UNION_START,
      CODE_UNION_END,
      codeUnion(registry, name),
      file,
    ),
  );
}

/** Every generated file with the text it should have. */
export async function generatedReferences(): Promise<GeneratedFile[]> {
  const registries = await loadErrorRegistries();
  const files: GeneratedFile[] = [];
  for (const loaded of registries) {
    files.push({ file: loaded.registryFile, text: await typeFile(loaded) });
  }
  const page = replaceBetweenHeadings(
    readFileSync(ERRORS_PAGE, 'utf8'),
    ERRORS_PAGE_START,
    ERRORS_PAGE_END,
    errorSections(registries),
  );
  files.push({ file: ERRORS_PAGE, text: await formatted(ERRORS_PAGE, page) });
  const configuration = replaceBetweenHeadings(
    readFileSync(CONFIGURATION_PAGE, 'utf8'),
    CONFIGURATION_PAGE_START,
    CONFIGURATION_PAGE_END,
    configurationSections(),
  );
  files.push({
    file: CONFIGURATION_PAGE,
    text: await formatted(CONFIGURATION_PAGE, configuration),
  });
  const guide = replaceBetweenHeadings(
    readFileSync(CONTRIBUTING_GUIDE, 'utf8'),
    LEAN_CLIENT_SECTION_START,
    LEAN_CLIENT_SECTION_END,
    leanClientSection(),
  );
  files.push({ file: CONTRIBUTING_GUIDE, text: await formatted(CONTRIBUTING_GUIDE, guide) });
  return files;
}
