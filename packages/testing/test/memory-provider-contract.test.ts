import assert from 'node:assert/strict';
import {
  memoryNotFound,
  MemoryProvider,
  WeftError,
  type Memory,
  type QueryMemoryOptions,
} from '@weft/core';
import { describe, expect, it } from 'vitest';
import {
  INVALID_MEMORY_INPUTS,
  InMemoryMemoryProvider,
  memoryProviderContract,
  WeftTestingError,
} from '../src/index.js';

describe('InMemoryMemoryProvider keeps the memory-provider contract [claim:mpo-in-memory] [claim:tst-in-memory] [claim:wp-contract-suite] [claim:wp-memory-queries]', () => {
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

/** A provider that refuses an empty kind, but with a plain Error instead of the shared code. */
class UncodedProvider extends InMemoryMemoryProvider {
  override store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    if (memory.kind === '') return Promise.reject(new Error('kind is empty'));
    return super.store(memory);
  }
}

/** A provider whose query() breaks on a filter it does not support. */
class BrokenQueryProvider extends InMemoryMemoryProvider {
  /** The error it threw last, so a test can find that very object as the failure's cause. */
  thrown: Error | undefined;
  override query(options: QueryMemoryOptions): Promise<Memory[]> {
    if (options.kind !== undefined) {
      this.thrown = new TypeError('kind filter not supported');
      return Promise.reject(this.thrown);
    }
    return super.query(options);
  }
}

/** A provider that answers query options without checking them, taking any order but asc as desc. */
class UncheckedQueryProvider extends InMemoryMemoryProvider {
  override query(options: QueryMemoryOptions): Promise<Memory[]> {
    if (options === null || typeof options !== 'object') return super.query(options);
    return super.query({ ...options, order: options.order === 'asc' ? 'asc' : 'desc' });
  }
}

/** A provider whose remove() skips checkMemoryId: an id that is not a string removes nothing. */
class UncheckedRemoveProvider extends InMemoryMemoryProvider {
  override remove(id: string): Promise<boolean> {
    return typeof id === 'string' ? super.remove(id) : Promise.resolve(false);
  }
}

/** A provider whose clear() skips checkClearSpace: a space that is not a string clears nothing. */
class UncheckedClearProvider extends InMemoryMemoryProvider {
  override clear(space?: string): Promise<number> {
    return space === undefined || typeof space === 'string'
      ? super.clear(space)
      : Promise.resolve(0);
  }
}

/** A provider that refuses to remove an id it does not hold, where the contract wants `false`. */
class NotFoundOnRemoveProvider extends InMemoryMemoryProvider {
  override async remove(id: string): Promise<boolean> {
    if (await super.remove(id)) return true;
    throw memoryNotFound(id, 'NotFoundOnRemoveProvider');
  }
}

function caseNamed(cases: ReturnType<typeof memoryProviderContract>, name: string) {
  const found = cases.find((check) => check.name.startsWith(name));
  if (!found) throw new Error(`no case named ${name}`);
  return found;
}

describe('memoryProviderContract', () => {
  it('has unique names and adds the restart case only for reopenable stores [claim:testing-contract] [claim:mpo-contract-suite] [claim:tst-contract]', () => {
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

  it('fails a provider that stores undefined content as null, with a coded error [claim:tst-readme-contract-failed] [claim:testing-contract] [claim:mpo-contract-error] [claim:mpo-contract-refusals] [claim:tst-contract-error] [claim:tst-errors]', async () => {
    const check = caseNamed(
      memoryProviderContract({ create: () => new LenientProvider() }),
      'rejects undefined and non-JSON content on store',
    );
    const error = await check.run().catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
    expect(error).toBeInstanceOf(WeftTestingError);
    expect((error as Error).message).toContain(
      'memoryProviderContract: provider "in-memory" failed "rejects undefined and non-JSON content on store": store() of undefined content was accepted',
    );
  });

  it('shows no actual and expected values when nothing was compared: an input accepted, or refused with another code [claim:testing-contract]', async () => {
    const messages: string[] = [];
    for (const [provider, name] of [
      [new LenientProvider(), 'rejects undefined and non-JSON content on store'],
      [new UncodedProvider(), 'rejects an empty space or kind'],
    ] as const) {
      const error = await caseNamed(memoryProviderContract({ create: () => provider }), name)
        .run()
        .catch((caught: unknown) => caught);
      expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
      messages.push((error as Error).message);
    }
    expect(messages[0]).toContain('store() of undefined content was accepted');
    expect(messages[1]).toContain('must be rejected with a WeftError of code WEFT_MEMORY_INVALID');
    // assert.fail and assert.ok hold `undefined` and `false` as their values, which the
    // provider never gave: printed, they would read as what the store returned.
    for (const message of messages) expect(message).not.toMatch(/actual:|expected:/);
  });

  it('fails a provider that refuses bad input without the shared code, naming the code it expected [claim:testing-contract-codes] [claim:mpo-contract-shared-codes] [claim:tst-contract-shared-codes] [claim:mpo-contract-lists-inputs]', async () => {
    const check = caseNamed(
      memoryProviderContract({ create: () => new UncodedProvider() }),
      'rejects an empty space or kind',
    );
    const error = await check.run().catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
    expect((error as Error).message).toContain(
      'a memory with an empty kind must be rejected with a WeftError of code WEFT_MEMORY_INVALID, got: kind is empty',
    );
  });

  it('fails a provider that accepts an invalid query option, naming the input [claim:testing-contract-codes] [claim:mpo-contract-shared-codes] [claim:tst-contract-shared-codes] [claim:testing-invalid-inputs] [claim:mpo-contract-lists-inputs]', async () => {
    const check = caseNamed(
      memoryProviderContract({ create: () => new UncheckedQueryProvider() }),
      'refuses every invalid input with the shared code',
    );
    const error = await check.run().catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
    expect((error as Error).message).toContain(
      'query() with order "sideways" was accepted; it must be rejected with a WeftError of code WEFT_MEMORY_INVALID_QUERY',
    );
  });

  it('fails a provider that takes an id or space that is not a string without WEFT_INVALID_ARGUMENT [claim:testing-contract-codes] [claim:mpo-contract-lists-inputs]', async () => {
    const failures = [];
    for (const provider of [new UncheckedRemoveProvider(), new UncheckedClearProvider()]) {
      const check = caseNamed(
        memoryProviderContract({ create: () => provider }),
        'refuses every invalid input with the shared code',
      );
      const error = await check.run().catch((caught: unknown) => caught);
      expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
      failures.push((error as Error).message);
    }
    expect(failures[0]).toContain(
      'remove() with a numeric id was accepted; it must be rejected with a WeftError of code WEFT_INVALID_ARGUMENT',
    );
    expect(failures[1]).toContain(
      'clear() with a numeric space was accepted; it must be rejected with a WeftError of code WEFT_INVALID_ARGUMENT',
    );
  });

  it('asks WEFT_INVALID_ARGUMENT only for an id, or the space given to clear(), that is not a string, and NOT_FOUND only of update() [claim:testing-contract-codes]', async () => {
    const codeOf = (name: string) =>
      INVALID_MEMORY_INPUTS.find((input) => input.name === name)?.code;
    // A space that is not a string is a bad memory or a bad query option everywhere but clear().
    expect(codeOf('store() of a memory with a numeric space')).toBe('WEFT_MEMORY_INVALID');
    expect(codeOf('query() with space 5')).toBe('WEFT_MEMORY_INVALID_QUERY');
    expect(codeOf('clear() with a numeric space')).toBe('WEFT_INVALID_ARGUMENT');
    expect(codeOf('update() with a numeric id')).toBe('WEFT_INVALID_ARGUMENT');
    expect(codeOf('remove() with a numeric id')).toBe('WEFT_INVALID_ARGUMENT');
    expect(codeOf('update() of an unknown id')).toBe('WEFT_MEMORY_NOT_FOUND');
    // remove() of an unknown id answers false: a store that refuses it breaks the contract.
    const check = caseNamed(
      memoryProviderContract({ create: () => new NotFoundOnRemoveProvider() }),
      'removes one memory and reports whether it existed',
    );
    const error = await check.run().catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
    expect((error as Error).message).toContain('it threw where the contract expects no error');
    expect(WeftError.is((error as Error).cause, 'WEFT_MEMORY_NOT_FOUND')).toBe(true);
  });

  it('reports an unexpected exception of the provider as a contract failure naming the rule, with the original as cause [claim:tst-readme-contract-failed] [claim:testing-contract-unexpected-error] [claim:mpo-contract-unexpected] [claim:tst-contract-unexpected]', async () => {
    const provider = new BrokenQueryProvider();
    const check = caseNamed(
      memoryProviderContract({ create: () => provider }),
      'ANDs kind, task and time filters',
    );
    const error = await check.run().catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
    expect((error as Error).message).toContain(
      'memoryProviderContract: provider "in-memory" failed "ANDs kind, task and time filters with the space filters": it threw where the contract expects no error: kind filter not supported',
    );
    // The provider's own error, not a copy of it.
    expect(provider.thrown).toBeInstanceOf(TypeError);
    expect((error as Error).cause).toBe(provider.thrown);
  });

  it('reports a factory or init() that throws as a contract failure of the case [claim:tst-contract-unexpected]', async () => {
    const [check] = memoryProviderContract({
      create: () => {
        throw new Error('no database');
      },
    });
    const error = await check?.run().catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
    expect((error as Error).message).toContain(
      'provider "(not created)" failed "round-trips every field": it threw where the contract expects no error: no database',
    );
  });

  it('opens each provider with init() and shuts it down once when its case ends, passed or failed [claim:testing-contract]', async () => {
    const events: string[] = [];
    /** Logs its lifecycle over a store it can share; query() fails on a kind filter when told. */
    class LifecycleProvider extends MemoryProvider {
      readonly id: string;
      constructor(
        name: string,
        private readonly breakKind = false,
        readonly inner = new InMemoryMemoryProvider(),
      ) {
        super();
        this.id = name;
      }
      override async init(): Promise<void> {
        events.push(`${this.id}: init`);
      }
      override async shutdown(): Promise<void> {
        events.push(`${this.id}: shutdown`);
      }
      store(memory: Omit<Memory, 'id' | 'createdAt'>) {
        return this.inner.store(memory);
      }
      update(id: string, patch: { content?: unknown }) {
        return this.inner.update(id, patch);
      }
      query(options: QueryMemoryOptions) {
        if (this.breakKind && options.kind !== undefined) {
          return Promise.reject(new TypeError('kind filter not supported'));
        }
        return this.inner.query(options);
      }
      remove(id: string) {
        return this.inner.remove(id);
      }
      clear(space?: string) {
        return this.inner.clear(space);
      }
    }
    const outcomes: string[] = [];
    let created = 0;
    for (const [breakKind, name] of [
      [false, 'ANDs kind, task and time filters'],
      [true, 'ANDs kind, task and time filters'],
      [false, 'keeps every memory across shutdown'],
    ] as const) {
      const check = caseNamed(
        memoryProviderContract({
          create: () => new LifecycleProvider(`p${(created += 1)}`, breakKind),
          // Over the same store, as a durable store's reopen is.
          reopen: (previous) => new LifecycleProvider(`${previous.id}'`, false, previous.inner),
        }),
        name,
      );
      outcomes.push(
        await check.run().then(
          () => 'passed',
          (error: unknown) => (WeftError.is(error) ? error.code : 'other'),
        ),
      );
    }
    expect(outcomes).toEqual(['passed', 'WEFT_TESTING_CONTRACT_FAILED', 'passed']);
    expect(events).toEqual([
      'p1: init',
      'p1: shutdown',
      'p2: init',
      'p2: shutdown',
      // The restart case shuts the first instance down itself, then opens and closes the second.
      'p3: init',
      'p3: shutdown',
      "p3': init",
      "p3': shutdown",
    ]);
  });

  it('does not shut down a provider whose init() threw, and fails the case naming its error [claim:testing-contract]', async () => {
    const events: string[] = [];
    /** A store whose init() fails, as one that cannot open its database does. */
    class UnopenableProvider extends InMemoryMemoryProvider {
      override async init(): Promise<void> {
        events.push('init');
        throw new Error('database is locked');
      }
      override async shutdown(): Promise<void> {
        events.push('shutdown');
      }
    }
    const [check] = memoryProviderContract({ create: () => new UnopenableProvider() });
    const error = await check?.run().catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
    expect((error as Error).message).toContain(
      'failed "round-trips every field": it threw where the contract expects no error: database is locked',
    );
    expect(events).toEqual(['init']);
  });

  it('fails a store that forgets its memories on restart, showing both sides [claim:testing-contract] [claim:mpo-contract-suite] [claim:tst-contract-error]', async () => {
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

  it('names the broken rule, not only a diff, where one assertion of a case checks a single value [claim:tst-contract-error]', async () => {
    /** Takes `space` as a prefix. */
    class PrefixSpaceProvider extends InMemoryMemoryProvider {
      override query(options: QueryMemoryOptions): Promise<Memory[]> {
        const { space, ...rest } = options;
        return super.query(space === undefined ? options : { ...rest, spacePrefix: space });
      }
    }
    /** Durable over a shared store, but gives every query newest first, whatever its order. */
    class NewestFirstProvider extends MemoryProvider {
      readonly id = 'newest-first';
      constructor(readonly inner = new InMemoryMemoryProvider()) {
        super();
      }
      store(memory: Omit<Memory, 'id' | 'createdAt'>) {
        return this.inner.store(memory);
      }
      update(id: string, patch: { content?: unknown }) {
        return this.inner.update(id, patch);
      }
      query(options: QueryMemoryOptions) {
        return this.inner.query({ ...options, order: 'desc' });
      }
      remove(id: string) {
        return this.inner.remove(id);
      }
      clear(space?: string) {
        return this.inner.clear(space);
      }
    }
    const failures: [WeftError, string][] = [];
    for (const [cases, name, rule] of [
      [
        memoryProviderContract({ create: () => new PrefixSpaceProvider() }),
        'filters by space, prefix and pattern',
        'space matches one space exactly',
      ],
      [
        memoryProviderContract({
          create: () => new NewestFirstProvider(),
          reopen: (previous) => new NewestFirstProvider(previous.inner),
        }),
        'keeps every memory across shutdown',
        'the oldest memory must come first in order asc after the restart',
      ],
    ] as const) {
      const error = await caseNamed(cases, name)
        .run()
        .catch((caught: unknown) => caught);
      expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
      failures.push([error as WeftError, rule]);
    }
    for (const [error, rule] of failures) {
      expect(error.message).toContain(rule);
      expect(error.message).toMatch(/actual: [^]*expected: /);
      expect((error.cause as { generatedMessage?: boolean }).generatedMessage).toBe(false);
    }
  });

  it('names the method whose result it cannot read, rather than saying the provider threw [claim:tst-contract-error]', async () => {
    /** Stores the memory but resolves with nothing. */
    class SilentStoreProvider extends InMemoryMemoryProvider {
      override async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
        await super.store(memory);
        return undefined as unknown as Memory;
      }
    }
    /** Answers a query with an object instead of a list. */
    class ObjectQueryProvider extends InMemoryMemoryProvider {
      override async query(): Promise<Memory[]> {
        return {} as Memory[];
      }
    }
    const failures = [];
    for (const [cases, name] of [
      [memoryProviderContract({ create: () => new SilentStoreProvider() }), 'round-trips'],
      [memoryProviderContract({ create: () => new ObjectQueryProvider() }), 'round-trips'],
      // This case queries before it reads what store() returned: store() is still the one named.
      [memoryProviderContract({ create: () => new SilentStoreProvider() }), 'keeps content'],
    ] as const) {
      failures.push(
        await caseNamed(cases, name)
          .run()
          .catch((caught: unknown) => caught),
      );
    }
    for (const [index, [name, method, got]] of [
      ['round-trips every field', 'store', 'a memory): it resolved with undefined'],
      ['round-trips every field', 'query', 'a list of memories): it resolved with {}'],
      ['keeps content as its JSON form', 'store', 'a memory): it resolved with undefined'],
    ].entries()) {
      const error = failures[index] as WeftError;
      expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
      expect(error.message).toContain(
        `failed "${name}": what ${method}() returned is not what MemoryProvider promises (${got}`,
      );
      expect(error.message).not.toContain('it threw');
      expect(error.cause).toBeInstanceOf(Error);
    }
  });

  it('reports an assertion the provider itself throws, or a failing shutdown(), as an error the provider threw [claim:tst-contract-unexpected]', async () => {
    /** Checks its own state with node:assert, and finds it wanting on a kind filter. */
    class AssertingProvider extends InMemoryMemoryProvider {
      override query(options: QueryMemoryOptions): Promise<Memory[]> {
        assert.equal(options.kind, undefined, 'this store cannot filter by kind');
        return super.query(options);
      }
    }
    /** Passes every check, then fails to close. */
    class StuckShutdownProvider extends InMemoryMemoryProvider {
      override async shutdown(): Promise<void> {
        throw new Error('the file is locked');
      }
    }
    const asserting = await caseNamed(
      memoryProviderContract({ create: () => new AssertingProvider() }),
      'ANDs kind, task and time filters',
    )
      .run()
      .catch((caught: unknown) => caught);
    const stuck = await caseNamed(
      memoryProviderContract({ create: () => new StuckShutdownProvider() }),
      'round-trips every field',
    )
      .run()
      .catch((caught: unknown) => caught);
    expect((asserting as Error).message).toContain(
      'failed "ANDs kind, task and time filters with the space filters": it threw where the contract expects no error: this store cannot filter by kind',
    );
    expect((asserting as Error).cause).toBeInstanceOf(assert.AssertionError);
    expect((stuck as Error).message).toContain(
      'failed "round-trips every field": it threw where the contract expects no error: the file is locked',
    );
  });

  it('reports the rule a reopened store broke, even when its shutdown() then fails too [claim:tst-contract-error]', async () => {
    /** Forgets on restart, and its second instance cannot close. */
    class ForgetfulLockedProvider extends AmnesiacProvider {
      constructor(private readonly reopened = false) {
        super();
      }
      override async shutdown(): Promise<void> {
        if (this.reopened) throw new Error('the file is locked');
      }
    }
    const error = await caseNamed(
      memoryProviderContract({
        create: () => new ForgetfulLockedProvider(),
        reopen: () => new ForgetfulLockedProvider(true),
      }),
      'keeps every memory across shutdown',
    )
      .run()
      .catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED')).toBe(true);
    expect((error as Error).message).toContain('every memory must survive a restart unchanged');
  });

  it("passes reopen() the provider its factory made, not the contract's view of it [claim:tst-contract]", async () => {
    /** A durable store over a shared map, whose private field a view of it could not reach. */
    class PrivateFieldProvider extends MemoryProvider {
      readonly id = 'private-field';
      readonly #inner: InMemoryMemoryProvider;
      constructor(inner = new InMemoryMemoryProvider()) {
        super();
        this.#inner = inner;
      }
      static reopen(previous: PrivateFieldProvider): PrivateFieldProvider {
        return new PrivateFieldProvider(previous.#inner);
      }
      store(memory: Omit<Memory, 'id' | 'createdAt'>) {
        return this.#inner.store(memory);
      }
      update(id: string, patch: { content?: unknown }) {
        return this.#inner.update(id, patch);
      }
      query(options: QueryMemoryOptions) {
        return this.#inner.query(options);
      }
      remove(id: string) {
        return this.#inner.remove(id);
      }
      clear(space?: string) {
        return this.#inner.clear(space);
      }
    }
    for (const check of memoryProviderContract({
      create: () => new PrivateFieldProvider(),
      reopen: (previous) => PrivateFieldProvider.reopen(previous),
    })) {
      await check.run();
    }
  });

  it("makes 32 concurrent store() calls in the contract's concurrency case [claim:mpo-contract-32] [claim:tst-contract]", async () => {
    let stores = 0;
    class CountingProvider extends InMemoryMemoryProvider {
      override store(...args: Parameters<InMemoryMemoryProvider['store']>) {
        stores += 1;
        return super.store(...args);
      }
    }
    const concurrency = memoryProviderContract({ create: () => new CountingProvider() }).find(
      (check) => check.name.includes('concurrent'),
    );
    expect(concurrency?.name).toBe('lands 32 concurrent stores with distinct ids');
    await concurrency?.run();
    expect(stores).toBe(32);
  });
});

describe('INVALID_MEMORY_INPUTS', () => {
  it.each(INVALID_MEMORY_INPUTS.map((input) => [input.name, input] as const))(
    'runs on its own against a store holding one memory: %s [claim:testing-invalid-inputs]',
    async (_name, input) => {
      const memory = new InMemoryMemoryProvider();
      const stored = await memory.store({ space: 'room', kind: 'note', content: 1, metadata: {} });
      const error = await input.call(memory, stored.id).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(WeftError.is(error, input.code)).toBe(true);
      expect((error as Error).message).toContain(input.names);
      expect(await memory.query({})).toEqual([stored]);
    },
  );
});

/** Message of an error with the ids taken out, so two stores' refusals of one input compare equal. */
const withoutIds = (message: string): string =>
  message.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>');

/** A store that checks its input as the others do, but lets through the input refused with `message`. */
class LetsOneThrough extends InMemoryMemoryProvider {
  constructor(private readonly message: string) {
    super();
  }
  private letThrough<T>(call: Promise<T>, accepted: T): Promise<T> {
    return call.catch((error: unknown) => {
      if (error instanceof Error && withoutIds(error.message) === this.message) return accepted;
      throw error;
    });
  }
  override store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    return this.letThrough(super.store(memory), LET_THROUGH);
  }
  override update(id: string, patch: { content?: unknown }): Promise<Memory> {
    return this.letThrough(super.update(id, patch), LET_THROUGH);
  }
  override query(options: QueryMemoryOptions): Promise<Memory[]> {
    return this.letThrough(super.query(options), []);
  }
  override remove(id: string): Promise<boolean> {
    return this.letThrough(super.remove(id), false);
  }
  override clear(space?: string): Promise<number> {
    return this.letThrough(super.clear(space), 0);
  }
}

/** What {@link LetsOneThrough} answers for a memory it should have refused. */
const LET_THROUGH: Memory = {
  id: 'let-through',
  space: 'let-through',
  kind: 'note',
  content: null,
  metadata: {},
  createdAt: new Date(0),
};

describe('the contract and INVALID_MEMORY_INPUTS', () => {
  it('fails a store that lets through any one input of the list, naming the input [claim:mpo-contract-lists-inputs]', async () => {
    // Each input's refusal as the checks word it, from a store holding one memory.
    const messages: string[] = [];
    for (const input of INVALID_MEMORY_INPUTS) {
      const memory = new InMemoryMemoryProvider();
      const stored = await memory.store({
        space: 'inputs',
        kind: 'note',
        content: 1,
        metadata: {},
      });
      const error = await input.call(memory, stored.id).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(WeftError.is(error, input.code), input.name).toBe(true);
      messages.push(withoutIds((error as Error).message));
    }
    for (const [index, input] of INVALID_MEMORY_INPUTS.entries()) {
      const message = messages[index]!;
      // Two inputs refused in the same words are let through together; the suite names the first.
      const first = INVALID_MEMORY_INPUTS[messages.indexOf(message)]!;
      const check = caseNamed(
        memoryProviderContract({ create: () => new LetsOneThrough(message) }),
        'refuses every invalid input with the shared code',
      );
      const error = await check.run().catch((caught: unknown) => caught);
      expect(WeftError.is(error, 'WEFT_TESTING_CONTRACT_FAILED'), input.name).toBe(true);
      expect((error as Error).message, input.name).toContain(
        `${first.name} was accepted; it must be rejected with a WeftError of code ${first.code}`,
      );
    }
    // The whole contract runs once per input: 2 s on a quiet machine, past 20 s once on a CI
    // machine running five other jobs beside it.
  }, 90_000);
});

describe('what the contract cannot see', () => {
  it('passes a store that skips the check of metadata text, since the list has no such example [claim:mpo-contract-examples-only]', async () => {
    const refused = (error: unknown): boolean =>
      WeftError.is(error, 'WEFT_MEMORY_INVALID') && /"metadata".*NUL/.test(error.message);
    class SkipsMetadataText extends InMemoryMemoryProvider {
      override store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
        return super.store(memory).catch((error: unknown) => {
          if (refused(error)) return LET_THROUGH;
          throw error;
        });
      }
    }
    const lenient = new SkipsMetadataText();
    const nul = { space: 'room', kind: 'note', content: 1, metadata: { tag: 'a\0b' } };
    await expect(new InMemoryMemoryProvider().store(nul)).rejects.toSatisfy(refused);
    await expect(lenient.store(nul)).resolves.toBe(LET_THROUGH);
    for (const check of memoryProviderContract({ create: () => new SkipsMetadataText() })) {
      await check.run();
    }
  });
});

describe('InMemoryMemoryProvider errors', () => {
  it('refuses input with the shared codes of @weft/core, naming the field [claim:tst-errors] [claim:tst-in-memory-shared-codes] [claim:tsdoc-core-provider-update-throws]', async () => {
    const memory = new InMemoryMemoryProvider();
    await expect(
      memory.store({ space: 'room', kind: '', content: 1, metadata: {} }),
    ).rejects.toThrow(
      `InMemoryMemoryProvider "in-memory": a memory's "kind" must be a non-empty string (space "room"), got "" [WEFT_MEMORY_INVALID]`,
    );
    await expect(memory.update('nope', { content: 1 })).rejects.toSatisfy((error) =>
      WeftError.is(error, 'WEFT_MEMORY_NOT_FOUND'),
    );
    await expect(memory.query({ limit: 0 })).rejects.toSatisfy((error) =>
      WeftError.is(error, 'WEFT_MEMORY_INVALID_QUERY'),
    );
    await expect(memory.update(5 as unknown as string, { content: 1 })).rejects.toSatisfy((error) =>
      WeftError.is(error, 'WEFT_INVALID_ARGUMENT'),
    );
    await expect(memory.remove(5 as unknown as string)).rejects.toSatisfy((error) =>
      WeftError.is(error, 'WEFT_INVALID_ARGUMENT'),
    );
    await expect(memory.clear(5 as unknown as string)).rejects.toSatisfy((error) =>
      WeftError.is(error, 'WEFT_INVALID_ARGUMENT'),
    );
  });

  it('refuses undefined content on store(), but an update() patch with undefined content keeps the content [claim:tst-in-memory-undefined-content]', async () => {
    const memory = new InMemoryMemoryProvider();
    await expect(
      memory.store({ space: 'room', kind: 'note', content: undefined, metadata: {} }),
    ).rejects.toSatisfy((error) => WeftError.is(error, 'WEFT_MEMORY_INVALID'));
    const stored = await memory.store({
      space: 'room',
      kind: 'note',
      content: { v: 1 },
      metadata: {},
    });
    const updated = await memory.update(stored.id, { content: undefined, metadata: { m: 2 } });
    expect(updated).toMatchObject({ content: { v: 1 }, metadata: { m: 2 } });
    await expect(memory.update(stored.id, { content: 10n })).rejects.toSatisfy((error) =>
      WeftError.is(error, 'WEFT_MEMORY_INVALID'),
    );
    expect((await memory.query({}))[0]?.content).toEqual({ v: 1 });
  });

  it('refuses what SQLite refuses: a sideways order, since as a string, a numeric kind, metadata that is an array [claim:mpo-in-memory-same-refusals] [claim:tst-in-memory-shared-codes]', async () => {
    const memory = new InMemoryMemoryProvider();
    const bad = [
      () => memory.query({ order: 'sideways' as 'asc' }),
      () => memory.query({ since: '2026-01-01' as unknown as Date }),
      () => memory.query({ kind: 5 as unknown as string }),
      () =>
        memory.store({
          space: 'room',
          kind: 'note',
          content: 1,
          metadata: ['a'] as unknown as Record<string, unknown>,
        }),
    ];
    const codes = await Promise.all(
      bad.map((call) =>
        call().then(
          () => 'accepted',
          (error: unknown) => (WeftError.is(error) ? error.code : String(error)),
        ),
      ),
    );
    expect(codes).toEqual([
      'WEFT_MEMORY_INVALID_QUERY',
      'WEFT_MEMORY_INVALID_QUERY',
      'WEFT_MEMORY_INVALID_QUERY',
      'WEFT_MEMORY_INVALID',
    ]);
    expect(await memory.query({})).toEqual([]);
  });
});

describe('InMemoryMemoryProvider space patterns', () => {
  it('matches * against any run of characters without backtracking on many stars [claim:mpo-in-memory-patterns-linear]', async () => {
    const memory = new InMemoryMemoryProvider();
    const spaces = ['a'.repeat(60), 'room-1', 'room-12-user', 'line\nbreak', 'ab*c'];
    for (const space of spaces) {
      await memory.store({ space, kind: 'note', content: space, metadata: {} });
    }
    const found = async (pattern: string) =>
      (await memory.query({ spacePatterns: [pattern], order: 'asc' })).map((m) => m.space);
    // A regular expression would backtrack for minutes over the 60 a's.
    const started = performance.now();
    expect(await found(`${'*a'.repeat(20)}*b`)).toEqual([]);
    expect(await found(`${'*a'.repeat(20)}*`)).toEqual(['a'.repeat(60)]);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await found('room-*')).toEqual(['room-1', 'room-12-user']);
    expect(await found('room-1*')).toEqual(['room-1', 'room-12-user']);
    expect(await found('room-1')).toEqual(['room-1']);
    expect(await found('*user')).toEqual(['room-12-user']);
    expect(await found('r*m*-*2*')).toEqual(['room-12-user']);
    expect(await found('line*')).toEqual(['line\nbreak']);
    expect(await found('ab*')).toEqual(['ab*c']);
    expect(await found('*')).toEqual(spaces);
    expect(await found('room')).toEqual([]);
    expect(await found('*x*')).toEqual([]);
  });

  it('finds what a regular expression finds, over every short pattern of a, b and * [claim:mpo-in-memory-patterns-linear] [claim:mpo-matches-space-pattern]', async () => {
    const memory = new InMemoryMemoryProvider();
    const words = (length: number, letters: string[]): string[] =>
      length === 0 ? [''] : words(length - 1, letters).flatMap((w) => letters.map((l) => w + l));
    const spaces = [1, 2, 3, 4].flatMap((length) => words(length, ['a', 'b']));
    for (const space of spaces) {
      await memory.store({ space, kind: 'note', content: null, metadata: {} });
    }
    for (const pattern of [1, 2, 3, 4].flatMap((length) => words(length, ['a', 'b', '*']))) {
      const regExp = new RegExp(`^${pattern.replace(/\*/g, '.*')}$`);
      const found = await memory.query({ spacePatterns: [pattern], limit: 1000, order: 'asc' });
      expect(
        found.map((m) => m.space),
        pattern,
      ).toEqual(spaces.filter((space) => regExp.test(space)));
    }
  });
});

describe('InMemoryMemoryProvider id', () => {
  it('is in-memory unless told another [claim:mpo-in-memory-id] [claim:tst-in-memory-id]', () => {
    expect(new InMemoryMemoryProvider().id).toBe('in-memory');
    expect(new InMemoryMemoryProvider({ id: 'scratch' }).id).toBe('scratch');
  });

  it.each([
    [{ idd: 'scratch' }, /^InMemoryMemoryProvider: unknown option "idd"; its only option is id\./],
    [{ id: '' }, /^InMemoryMemoryProvider: option "id" must be a non-empty string, got ""\./],
    [
      { id: '   ' },
      /^InMemoryMemoryProvider: option "id" must be a non-empty string, got " {3}"\./,
    ],
    [{ id: '\n' }, /^InMemoryMemoryProvider: option "id" must be a non-empty string, got "\\n"\./],
    [{ id: 7 }, /^InMemoryMemoryProvider: option "id" must be a non-empty string, got number\./],
    [null, /^InMemoryMemoryProvider: options must be an object .*, got null\./],
  ])(
    'refuses the options %j with WEFT_TESTING_INVALID_OPTIONS, naming the option [claim:tsdoc-in-memory-options] [claim:cfg-package-options-checked] [claim:tst-readme-invalid-options]',
    (options, message) => {
      const make = () => new InMemoryMemoryProvider(options as never);
      expect(make).toThrow(message);
      try {
        make();
      } catch (error) {
        expect(WeftError.is(error, 'WEFT_TESTING_INVALID_OPTIONS')).toBe(true);
      }
    },
  );
});
