import { fileURLToPath } from 'node:url';
import { PromptRegistry } from '@weft/core';

/**
 * Registers the digest plugin's templates: one inline, the rest from .liquid
 * files.
 */
export async function createDigestPrompts(): Promise<PromptRegistry> {
  const prompts = new PromptRegistry();
  prompts.register(
    'digest',
    'greeting',
    'Good morning, {{ reader | capitalize }}!',
  );
  const directory = fileURLToPath(new URL('./templates/', import.meta.url));
  // Registers digest/daily-digest from templates/daily-digest.liquid.
  await prompts.loadDirectory('digest', directory);
  return prompts;
}
