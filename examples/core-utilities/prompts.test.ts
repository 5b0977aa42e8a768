import { describe, expect, it } from 'vitest';
import { createDigestPrompts } from './prompts.js';

describe('PromptRegistry', () => {
  it('renders inline and file templates by their full names', async () => {
    const prompts = await createDigestPrompts();
    expect(prompts.list()).toEqual(['digest/daily-digest', 'digest/greeting']);
    expect(await prompts.render('digest/greeting', { reader: 'ada' })).toBe(
      'Good morning, Ada!',
    );

    const digest = prompts.get('digest/daily-digest');
    expect(digest.templateName).toBe('digest/daily-digest');
    const text = await digest({
      space: { id: 'team-docs', description: 'the docs team' },
      reader: 'Ada',
      items: [{ kind: 'chain', summary: 'Answered 3 questions about spaces.' }],
      maxWords: 50,
    });
    expect(text).toBe(
      "Write a short digest of yesterday's activity in team-docs (the docs team) for Ada.\n\n" +
        '- chain: Answered 3 questions about spaces.\nKeep it under 50 words.\n',
    );
  });

  it('leaves out a missing description and falls back to the default word count [claim:liq-optional] [claim:liq-default-filter]', async () => {
    const prompts = await createDigestPrompts();
    const text = await prompts.render('digest/daily-digest', {
      space: { id: 'team-docs' },
      reader: 'Ada',
      items: [],
    });
    expect(text).toBe(
      "Write a short digest of yesterday's activity in team-docs for Ada.\n\n" +
        'Nothing happened.\nKeep it under 80 words.\n',
    );
  });

  it('refuses an unknown filter when the template is registered [claim:liq-unknown-filter]', async () => {
    const prompts = await createDigestPrompts();
    expect(() =>
      prompts.register('digest', 'shouting', 'Hello {{ reader | shout }}'),
    ).toThrow(
      expect.objectContaining({
        code: 'WEFT_TEMPLATE_INVALID',
        message: expect.stringContaining('undefined filter: shout'),
      }),
    );
    expect(prompts.has('digest/shouting')).toBe(false);
  });

  it('names a variable the caller forgot [claim:liq-strict]', async () => {
    const prompts = await createDigestPrompts();
    await expect(prompts.render('digest/greeting', {})).rejects.toMatchObject({
      code: 'WEFT_TEMPLATE_RENDER_FAILED',
      message:
        'PromptRegistry: rendering "digest/greeting" failed: undefined variable: reader, line:1, col:18 [WEFT_TEMPLATE_RENDER_FAILED]',
    });
  });

  it('reports a missing template with the names it knows [claim:liq-not-found]', async () => {
    const prompts = await createDigestPrompts();
    expect(() => prompts.get('digest/weekly')).toThrow(
      'PromptRegistry: no template named "digest/weekly"; registered templates: digest/daily-digest, digest/greeting.',
    );
  });

  it('refuses a template that does not parse when it is registered [claim:liq-compile-on-register] [claim:liq-engine-loaded-first]', async () => {
    const prompts = await createDigestPrompts();
    expect(() =>
      prompts.register('digest', 'broken', '{% if reader %}unclosed'),
    ).toThrow('PromptRegistry: template "digest/broken" does not parse');
  });
});
