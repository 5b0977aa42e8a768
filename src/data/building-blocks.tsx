/**
 * The home page's building blocks: the parts of an agent, each with a short description and the
 * docs pages that explain it. Page content lives here rather than in the component that lays it
 * out, as the site's identity does in site.ts.
 */
import type { ReactNode } from 'react';

/** One card of the home page's "building blocks" section. */
export interface BuildingBlock {
  /** The card's heading: one part of an agent. */
  title: string;
  /** What the part does, in a sentence or two. */
  description: ReactNode;
  /** Docs pages about the part. */
  links: { label: string; to: string }[];
}

export const buildingBlocks: readonly BuildingBlock[] = [
  {
    title: 'Plugins: executors and triggers',
    description:
      'Plugins carry the abilities. Executors do the work of each pipeline step; triggers, such as HTTP routes, turn outside events into agent tasks.',
    links: [
      { label: 'Building plugins', to: '/docs/building-plugins/' },
      { label: 'Executors', to: '/docs/building-plugins/executors/' },
      { label: 'Triggers', to: '/docs/building-plugins/triggers/' },
    ],
  },
  {
    title: 'Model providers and capabilities',
    description:
      'Providers connect Weft to model services. Executors ask for a capability, such as text generation, never for a vendor, and transforms adapt one capability to another.',
    links: [
      { label: 'Model providers', to: '/docs/model-providers/' },
      { label: 'Capabilities', to: '/docs/capabilities/capabilities/' },
      { label: 'Transforms', to: '/docs/capabilities/transforms/' },
    ],
  },
  {
    title: 'Memory providers and spaces',
    description:
      'A memory provider stores what the agent learns. Memories live in hierarchical spaces, which also decide which tasks the scheduler runs one at a time.',
    links: [
      { label: 'Memory providers', to: '/docs/memory-providers/' },
      { label: 'Spaces', to: '/docs/core-utilities/spaces/' },
    ],
  },
  {
    title: 'Pipelines planned by a model',
    description: (
      <>
        A text model plans each task as a pipeline of steps through <code>getObject</code>, and zod
        schemas validate every step before it runs.
      </>
    ),
    links: [
      { label: 'getObject', to: '/docs/core-utilities/getObject/' },
      { label: 'Liquid templates', to: '/docs/core-utilities/liquid-templates/' },
    ],
  },
];
