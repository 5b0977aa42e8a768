/** What a ScriptedModelProvider is before it answers anything: its id, capability and health. */
import { describe, expect, it } from 'vitest';
import { ScriptedModelProvider } from '../src/index.js';

describe('ScriptedModelProvider', () => {
  it('is named scripted unless told another id, and offers text-generation [claim:testing-scripted-id] [claim:mpo-scripted-id] [claim:tst-scripted-id]', () => {
    expect(new ScriptedModelProvider().id).toBe('scripted');
    expect(new ScriptedModelProvider({ id: 'planner' }).id).toBe('planner');
    expect(new ScriptedModelProvider().capabilities.map((capability) => capability.id)).toEqual([
      'text-generation',
    ]);
  });

  it("answers true from the base class's checkHealth [claim:mpo-base-health]", async () => {
    expect(await new ScriptedModelProvider().checkHealth()).toBe(true);
  });
});
