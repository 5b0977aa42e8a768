/**
 * The docs sidebar, in reading order (the site's sidebars.ts hands it to Docusaurus). Each id is a file path under docs/ without
 * its extension, and each file's path is its route under /docs/.
 */
import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';

const sidebars: SidebarsConfig = {
  docs: [
    'index',
    'getting-started',
    'concepts/how-a-task-runs',
    'installation',
    'tutorials/chat-assistant',
    {
      type: 'category',
      label: 'Building plugins',
      link: { type: 'doc', id: 'building-plugins/index' },
      items: [
        'building-plugins/philosophy',
        'building-plugins/executors',
        'building-plugins/triggers',
        'building-plugins/mcp-tools',
        'building-plugins/http-chat',
        'building-plugins/websocket-chat',
      ],
    },
    {
      type: 'category',
      label: 'Capabilities',
      items: ['capabilities/capabilities', 'capabilities/transforms'],
    },
    {
      type: 'category',
      label: 'Model providers',
      link: { type: 'doc', id: 'model-providers/index' },
      items: ['model-providers/overview'],
    },
    {
      type: 'category',
      label: 'Memory providers',
      link: { type: 'doc', id: 'memory-providers/index' },
      items: ['memory-providers/overview'],
    },
    {
      type: 'category',
      label: 'Core utilities',
      link: { type: 'doc', id: 'core-utilities/index' },
      items: [
        'core-utilities/getObject',
        'core-utilities/liquid-templates',
        'core-utilities/spaces',
      ],
    },
    {
      type: 'category',
      label: 'Guides',
      items: [
        'guides/production',
        'guides/scaling-out',
        'guides/observability',
        'guides/testing',
        'guides/troubleshooting',
        'guides/ai-assistants',
      ],
    },
    {
      type: 'category',
      label: 'Reference',
      items: ['reference/configuration', 'reference/errors', 'reference/stability'],
    },
    'bounty-program',
    'contributing-guide',
  ],
};

export default sidebars;
