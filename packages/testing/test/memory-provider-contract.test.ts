import { MemoryProvider, WeftError, type Memory, type QueryMemoryOptions } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { InMemoryMemoryProvider, memoryProviderContract } from '../src/index.js';

describe('InMemoryMemoryProvider keeps the memory-provider contract', () => {
  for (const check of memoryProviderContract({ create: () => new InMemoryMemoryProvider() })) {
    it(check.name, check.run);
  }
});

/** A provider that breaks one rule: it stores `undefined` content as `null`. */
class LenientProvider extends InMemoryMemoryProvider {
  override store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    return super.store({ ...memory, content: memory.content ?? null });
  }
}

/** A provider that forgets everything on shutdown but claims to be durable. */
class AmnesiacProvider extends MemoryProvider {
  readonly id = 'amnesiac';
  private inner = new InMemoryMemoryProvider();
  store(memory: Omit<Memory, 'id' | 'createdAt'>) {
    return this.inner.store(memory);
  }
  update(id: string, patch: { content?: unknown }) {
    return this.inner.update(id, patch);
  }
  query(options: QueryMemoryOptions) {
    return this.inner.query(options);
  }
  remove(id: string) {
    return this.inner.remove(id);
  }
  clear(space?: string) {
    return this.inner.clear(space);
  }
}

function caseNamed(cases: ReturnType<typeof memoryProviderContract>, name: string) {
  const found = cases.find((check) => check.name.startsWith(name));
  if (!found) throw new Error(`no case named ${name}`);
  return found;
}

describe('memoryProviderContract', () => {
  it('has unique names and adds the restart case only for reopenable stores', () => {
    const volatile = memoryProviderContract({ create: () => new InMemoryMemoryProvider() });
    const durable = memoryProviderContract({
      create: () => new AmnesiacProvider(),
      reopen: () => new AmnesiacProvider(),
    });
    expect(new Set(volatile.map((check) => check.name)).size).toBe(volatile.length);
    expect(durable.map((check) => check.name)).toEqual([
      ...volatile.map((check) => check.name),
      'keeps every memory across shutdown and a new instance',
    ]);
  });

  it('fails a provider that stores undefined content as null, with a coded error', async () => {
    const check = caseNamed(
      memoryProviderContract({ create: () => new LenientProvider() }),
      'rejects undefined and non-JSON content on store',
    );
    const error = await check.run().catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
    expect((error as Error).message).toContain(
      'memoryProviderContract: provider "in-memory" failed "rejects undefined and non-JSON content on store": store() of undefined content was accepted',
    );
  });

  it('fails a store that forgets its memories on restart, showing both sides', async () => {
    const check = caseNamed(
      memoryProviderContract({
        create: () => new AmnesiacProvider(),
        reopen: () => new AmnesiacProvider(),
      }),
      'keeps every memory across shutdown',
    );
    const error = await check.run().catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(
      /every memory must survive a restart unchanged[^]*actual: \[\][^]*expected: \[/,
    );
  });
});

describe('InMemoryMemoryProvider errors', () => {
  it('names the problem and carries a code', async () => {
    const memory = new InMemoryMemoryProvider();
    await expect(
      memory.store({ space: 'room', kind: '', content: 1, metadata: {} }),
    ).rejects.toThrow(
      `InMemoryMemoryProvider: a memory's "kind" must be a non-empty string, got ""; give every memory a space id and a kind such as "note" [WEFT_TESTING_INVALID_MEMORY]`,
    );
    await expect(memory.update('nope', { content: 1 })).rejects.toSatisfy((error) =>
      WeftError.is(error, 'WEFT_TESTING_MEMORY_NOT_FOUND'),
    );
    await expect(memory.query({ limit: 0 })).rejects.toSatisfy((error) =>
      WeftError.is(error, 'WEFT_TESTING_INVALID_QUERY'),
    );
  });
});
