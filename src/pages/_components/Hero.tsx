import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import useBaseUrl from '@docusaurus/useBaseUrl';
import styles from './Hero.module.css';

interface HeroProps {
  title: string;
  tagline: string;
}

export default function Hero({ title, tagline }: HeroProps): ReactNode {
  const logo = useBaseUrl('/img/logo.svg');
  return (
    <header className={styles.hero}>
      <div className="container">
        <img className={styles.logo} src={logo} alt="" width={96} height={96} />
        <h1 className={styles.title}>{title}</h1>
        <p className={styles.tagline}>{tagline}</p>
        <p className={styles.lead}>
          A TypeScript framework in which an agent is assembled from plugins, model providers and a
          memory provider, and a text model plans its work as typed, validated pipelines.
        </p>
        <div className={styles.actions}>
          <Link className="button button--primary button--lg" to="/docs/getting-started/">
            Get started
          </Link>
          <Link className="button button--secondary button--outline button--lg" to="/api/">
            API reference
          </Link>
        </div>
      </div>
    </header>
  );
}
