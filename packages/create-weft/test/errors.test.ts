import { WeftError } from '../../core/src/errors/weft-error.js';
import { ERRORS_REFERENCE_URL as CORE_ERRORS_REFERENCE_URL } from '../../core/src/errors/error-registry.js';
import { describe, expect, it } from 'vitest';
import { parseArguments } from '../src/arguments.js';
import { CREATE_ERRORS, CreateWeftError, ERRORS_REFERENCE_URL } from '../src/errors.js';

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}

describe('CreateWeftError', () => {
  it('carries its code, at the end of the message too, and the address of its section', () => {
    const error = thrownBy(() => parseArguments(['a', '--model', 'gpt']));
    expect(error).toBeInstanceOf(CreateWeftError);
    const { code, message, docsUrl } = error as CreateWeftError;
    expect(code).toBe('WEFT_CREATE_INVALID_ARGUMENTS');
    expect(message).toMatch(/ \[WEFT_CREATE_INVALID_ARGUMENTS\]$/);
    expect(docsUrl).toBe(`${CORE_ERRORS_REFERENCE_URL}#weft_create_invalid_arguments`);
  });

  it('is recognised by WeftError.is of @weft/core, with its code, though it is no instance of WeftError [claim:cg-create-weft-error] [claim:errors-create-not-instanceof] [claim:errors-create-weft-look-alike]', () => {
    const error = new CreateWeftError('WEFT_CREATE_FOLDER_TAKEN', 'x: is a file; fix: another');
    expect(error).not.toBeInstanceOf(WeftError);
    expect(WeftError.is(error)).toBe(true);
    expect(WeftError.is(error, 'WEFT_CREATE_FOLDER_TAKEN')).toBe(true);
    expect(WeftError.is(error, 'WEFT_CREATE_INVALID_NAME')).toBe(false);
    expect(error.expose).toBe(true);
    expect(error.status).toBeUndefined();
  });

  it('points to the errors page the core points to, where each code has a section', () => {
    expect(ERRORS_REFERENCE_URL).toBe(CORE_ERRORS_REFERENCE_URL);
    expect(Object.keys(CREATE_ERRORS.codes).every((code) => code.startsWith('WEFT_CREATE_'))).toBe(
      true,
    );
  });
});
