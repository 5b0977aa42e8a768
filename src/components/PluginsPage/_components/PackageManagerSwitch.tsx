import type { ReactNode } from 'react';
import { PACKAGE_MANAGERS } from '@weft-internal/docs-model/package-managers';
import styles from './PackageManagerSwitch.module.css';

/** The radio group's name; each card's commands follow its checked input (CSS, no script). */
export const PACKAGE_MANAGER_INPUT = 'package-manager';

/**
 * Chooses the package manager every card's install command is shown for. Plain radio inputs,
 * so the choice works before and without hydration and adds no JavaScript to the page; the
 * page's stylesheet shows the matching command in each card (PackageCard's InstallCommands).
 */
export default function PackageManagerSwitch(): ReactNode {
  return (
    <fieldset className={styles.switch}>
      <legend>Install commands for</legend>
      {PACKAGE_MANAGERS.map((manager) => (
        <label key={manager}>
          <input
            type="radio"
            name={PACKAGE_MANAGER_INPUT}
            value={manager}
            defaultChecked={manager === 'npm'}
          />{' '}
          {manager}
        </label>
      ))}
    </fieldset>
  );
}
