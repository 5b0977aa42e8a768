import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import CodeBlock from '@theme/CodeBlock';
// A file that runs and is tested with the examples (examples/getting-started/agent.test.ts),
// shown as is so the home page cannot drift from working code.
import agentSource from '!!@site/examples/getting-started/agent.ts?raw';
import styles from './Snippet.module.css';

export default function Snippet(): ReactNode {
  return (
    <section className={styles.section} aria-labelledby="first-agent">
      <div className="container">
        <div className={styles.layout}>
          <div className={styles.text}>
            <h2 id="first-agent">An agent in a few lines</h2>
            <p>
              A runtime takes a model provider, a memory provider and your plugins. It checks the
              whole configuration at start-up and lists the problems it finds in one error.
            </p>
            <Link to="/docs/getting-started/">Walk through it in Getting started</Link>
          </div>
          <div className={styles.code}>
            <CodeBlock language="ts" title="examples/getting-started/agent.ts">
              {agentSource}
            </CodeBlock>
          </div>
        </div>
      </div>
    </section>
  );
}
