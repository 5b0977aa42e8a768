/**
 * The checker the SDK's client runs on a tool's answer against the tool's `outputSchema`: the
 * SDK's own (Ajv), with a time limit. The server writes both the schema and the answer, so a
 * `pattern` such as `^(a+)+$` and a value shaped for it would otherwise backtrack on the agent's
 * only thread for as long as the server likes.
 */
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { withinTime } from './input-schema.js';

/**
 * The longest checking one answer against its tool's `outputSchema` may take; past it the answer
 * is refused as if it broke the schema.
 * @claim tsdoc-mcp-output-check-time
 */
export const OUTPUT_CHECK_MS = 500;

/**
 * A `jsonSchemaValidator` for the SDK's client whose checks stop after {@link OUTPUT_CHECK_MS}.
 *
 * @returns A new checker (it caches what it compiles, so one per client).
 */
export function boundedOutputChecker(): jsonSchemaValidator {
  const ajv = new AjvJsonSchemaValidator();
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const check = ajv.getValidator<T>(schema);
      return (input) => {
        const result = withinTime(() => check(input), OUTPUT_CHECK_MS);
        return result === 'timeout'
          ? {
              valid: false,
              data: undefined,
              errorMessage: `the answer could not be checked against the tool's outputSchema within ${OUTPUT_CHECK_MS} ms`,
            }
          : result;
      };
    },
  };
}
