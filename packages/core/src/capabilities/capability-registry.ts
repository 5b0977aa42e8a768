import {
  assertDescriptorSchemas,
  textGenerationCapability,
  type CapabilityAliasGroup,
  type CapabilityDescriptor,
  type CapabilityTransformEntry,
} from './capability.js';
import { WeftError } from '../errors/weft-error.js';

/**
 * Holds every known capability descriptor, the alias groups that let capabilities stand in for
 * one another, and the transforms between them. The runtime fills it from the built-in
 * text-generation capability, each model provider's descriptors and transforms, and the
 * `capabilityAliases` of its configuration.
 *
 * @example
 * ```ts
 * import { CapabilityRegistry, defineCapability } from '@weft/core';
 * import { z } from 'zod';
 *
 * const registry = new CapabilityRegistry();
 * registry.register(
 *   defineCapability({
 *     id: 'summarise',
 *     description: 'Summarises a text.',
 *     input: z.object({ text: z.string() }),
 *     output: z.object({ summary: z.string() }),
 *   }),
 * );
 * registry.addAliasGroup(['summarise', 'summarize']);
 * console.log(registry.aliasesOf('summarize')); // ['summarise']
 * ```
 */
export class CapabilityRegistry {
  private readonly descriptors = new Map<string, CapabilityDescriptor>();
  private readonly groups: CapabilityAliasGroup[] = [];
  private readonly transforms = new Map<string, CapabilityTransformEntry>();

  /** Creates a registry that already holds the built-in text-generation capability. */
  constructor() {
    this.register(textGenerationCapability);
  }

  /**
   * Adds a capability descriptor. Registering the very same descriptor twice is harmless;
   * registering a different descriptor under a taken id is an error.
   *
   * @param descriptor - The descriptor, usually made with {@link defineCapability}.
   * @throws {@link WeftError} `WEFT_DUPLICATE` when another descriptor already uses the id;
   * `WEFT_UNSUPPORTED_SCHEMA` when its `input`, `output` or a given `config` is not a zod 4
   * schema (a descriptor written without `defineCapability`, from JavaScript or through a cast).
   * @claim tsdoc-capabilities-register
   */
  register(descriptor: CapabilityDescriptor): void {
    assertDescriptorSchemas(descriptor, 'CapabilityRegistry.register');
    const existing = this.descriptors.get(descriptor.id);
    if (existing && existing !== descriptor) {
      throw new WeftError(
        'WEFT_DUPLICATE',
        `CapabilityRegistry: capability "${descriptor.id}" is already registered with a different descriptor; give the new one another id.`,
      );
    }
    this.descriptors.set(descriptor.id, descriptor);
  }

  /**
   * Returns the descriptor registered under an id.
   *
   * @param id - A capability id.
   * @returns The descriptor, or `undefined` when none is registered.
   */
  get(id: string): CapabilityDescriptor | undefined {
    return this.descriptors.get(id);
  }

  /**
   * Tells whether a descriptor is registered under an id.
   *
   * @param id - A capability id.
   * @returns `true` when registered.
   */
  has(id: string): boolean {
    return this.descriptors.has(id);
  }

  /**
   * Lists the registered capabilities.
   *
   * @returns Every registered descriptor, in registration order.
   */
  list(): CapabilityDescriptor[] {
    return [...this.descriptors.values()];
  }

  /**
   * Declares that the ids of a group can stand in for one another.
   *
   * @param group - Two or more distinct capability ids.
   * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` when the group is not an array of
   * non-empty strings, has fewer than two ids or repeats one.
   * @claim tsdoc-capabilities-alias
   */
  addAliasGroup(group: CapabilityAliasGroup): void {
    // A flat list given where a list of groups is expected (from JavaScript) hands each id here
    // as a string, which would otherwise be read as a group of its letters.
    if (!Array.isArray(group) || group.some((id) => typeof id !== 'string' || id === '')) {
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `CapabilityRegistry: alias group ${JSON.stringify(group) ?? String(group)} must be an array of capability ids, such as ['summarise', 'text-generation']; capabilityAliases is a list of such groups.`,
      );
    }
    if (group.length < 2 || new Set(group).size !== group.length) {
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `CapabilityRegistry: alias group [${group.join(', ')}] must list at least two distinct capability ids.`,
      );
    }
    this.groups.push([...group]);
  }

  /**
   * Lists the ids that can stand in for a capability, in the order their groups were added.
   *
   * @param id - A capability id.
   * @returns The other members of every group containing `id`; empty when it has none.
   */
  aliasesOf(id: string): string[] {
    const aliases: string[] = [];
    for (const group of this.groups) {
      if (!group.includes(id)) continue;
      for (const member of group) {
        if (member !== id && !aliases.includes(member)) aliases.push(member);
      }
    }
    return aliases;
  }

  /**
   * Registers a transform between two capabilities of one alias group.
   *
   * @param entry - The transform.
   * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` when `from` and `to` share no alias
   * group, or `WEFT_DUPLICATE` when a transform for the pair exists.
   * @claim tsdoc-capabilities-transform
   */
  addTransform(entry: CapabilityTransformEntry): void {
    if (!this.aliasesOf(entry.from).includes(entry.to)) {
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `CapabilityRegistry: transform "${entry.from}" -> "${entry.to}" needs both ids in one alias group; add the group to capabilityAliases first.`,
      );
    }
    const key = transformKey(entry.from, entry.to);
    if (this.transforms.has(key)) {
      throw new WeftError(
        'WEFT_DUPLICATE',
        `CapabilityRegistry: a transform "${entry.from}" -> "${entry.to}" is already registered.`,
      );
    }
    this.transforms.set(key, entry);
  }

  /**
   * Returns the transform registered for a pair of capabilities.
   *
   * @param from - The capability a caller asked for.
   * @param to - The capability a provider offers.
   * @returns The transform, or `undefined` when values pass unchanged.
   */
  getTransform(from: string, to: string): CapabilityTransformEntry | undefined {
    return this.transforms.get(transformKey(from, to));
  }
}

function transformKey(from: string, to: string): string {
  return `${from}\u0000${to}`;
}
