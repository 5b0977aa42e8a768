/** Which version `npm run check:docusaurus-upgrade [version|next]` tries. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chooseVersion,
  docusaurusRangesMissing,
  nodeMajorFor,
  versionsOfAll,
  unrecognizedFields,
  withVersionForced,
  withoutFields,
} from '../../scripts/check-docusaurus-upgrade';

describe('the Docusaurus upgrade check', () => {
  // As the registry listed them on 2026-11-25: the newest canary was published for core only.
  const core = ['3.9.2', '3.10.1', '3.10.2', '4.0.0-canary-6808', '4.0.0-canary-6822'];
  const preset = ['3.9.2', '3.10.1', '3.10.2', '4.0.0-canary-6808'];

  it('tries only versions every declared package has', () => {
    const versions = versionsOfAll([core, preset]);
    expect(chooseVersion('next', versions)).toBe('4.0.0-canary-6808');
    expect(chooseVersion(undefined, versions)).toBe('3.10.2');
  });

  it('orders 3.x releases by number, not as text', () => {
    expect(chooseVersion(undefined, ['3.9.2', '3.10.2', '3.2.0'])).toBe('3.10.2');
  });

  it('names a requested version that some package lacks', () => {
    expect(() => chooseVersion('4.0.0-canary-6822', versionsOfAll([core, preset]))).toThrow(
      /"4.0.0-canary-6822" is not published for every @docusaurus\/\* package/,
    );
  });

  it('runs a version on the Node.js major its engines ask for, when this one is older [claim:contributing-upgrade-check-node]', () => {
    // engines.node of @docusaurus/core 3.10.2 and 4.0.0-canary-6808.
    expect(nodeMajorFor('>=20.0', 'v20.20.2')).toBeUndefined();
    expect(nodeMajorFor('>=24.14', 'v20.20.2')).toBe(24);
    expect(nodeMajorFor('>=24.14', 'v24.9.0')).toBe(24);
    expect(nodeMajorFor('>=24.14', 'v24.21.0')).toBeUndefined();
    expect(() => nodeMajorFor('^24.14.0', 'v20.20.2')).toThrow(
      /"\^24.14.0" is not a ">=major.minor" range/,
    );
  });

  it('reads the fields a build refused and removes exactly those lines of the configuration [claim:cg-upgrade-check-steps-past]', () => {
    // The words of @docusaurus/core 4.0.0-canary-6808's refusal, as the check met them.
    const output =
      '[ERROR] Error: These field(s) ("future.v4.removeLegacyPostBuildHeadAttribute",) are not recognized in docusaurus.config.ts.';
    const fields = unrecognizedFields(output);
    expect(fields).toEqual(['future.v4.removeLegacyPostBuildHeadAttribute']);
    expect(unrecognizedFields('[SUCCESS] Generated static files')).toEqual([]);

    const config = readFileSync('docusaurus.config.ts', 'utf8');
    const migrated = withoutFields(config, fields);
    expect(migrated).not.toContain('removeLegacyPostBuildHeadAttribute');
    expect(config.split('\n').length - migrated.split('\n').length).toBe(1);
    // The flags the site turns off stay, for the tests to judge.
    expect(migrated).toContain('siteStorageNamespacing: false');
    expect(() => withoutFields(config, ['future.v4.noSuchFlag'])).toThrow(
      /"future\.v4\.noSuchFlag" is on 0 lines/,
    );
  });

  it('names the plugins whose @docusaurus/* ranges exclude the tried version, from the lockfile [claim:cg-upgrade-check-steps-past]', () => {
    const lockfile = JSON.parse(readFileSync('package-lock.json', 'utf8')) as Parameters<
      typeof docusaurusRangesMissing
    >[0];
    // Every package the site installs accepts the version it runs.
    expect(docusaurusRangesMissing(lockfile, '3.10.2')).toEqual(new Map());
    const missing = docusaurusRangesMissing(lockfile, '4.0.0-canary-6808');
    for (const [name, ranges] of missing) {
      expect(name.startsWith('@docusaurus/'), name).toBe(false);
      expect(Object.keys(ranges).every((dependency) => dependency.startsWith('@docusaurus/'))).toBe(
        true,
      );
    }
    // A stand-in lockfile: only the range that excludes the version is reported.
    expect(
      docusaurusRangesMissing(
        {
          packages: {
            'node_modules/old-plugin': {
              dependencies: { '@docusaurus/utils': '^2 || ^3', lodash: '^4' },
            },
            'node_modules/new-plugin': { dependencies: { '@docusaurus/utils': '>=3' } },
            'node_modules/@docusaurus/core': { dependencies: { '@docusaurus/utils': '3.10.2' } },
          },
        },
        '4.0.0-canary-6808',
      ),
    ).toEqual(new Map([['old-plugin', { '@docusaurus/utils': '^2 || ^3' }]]));
  });

  it("forces the tried version on those plugins with npm overrides, keeping the site's own [claim:cg-upgrade-check-steps-past]", () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Parameters<
      typeof withVersionForced
    >[0];
    const siteOverrides = manifest.overrides ?? {};
    expect(Object.keys(siteOverrides).length).toBeGreaterThan(0);
    const forced = withVersionForced(
      manifest,
      new Map([['old-plugin', { '@docusaurus/utils': '^2 || ^3', '@docusaurus/core': '^3' }]]),
      '4.0.0-canary-6808',
    );
    expect(forced.overrides).toEqual({
      ...siteOverrides,
      'old-plugin': {
        '@docusaurus/utils': '4.0.0-canary-6808',
        '@docusaurus/core': '4.0.0-canary-6808',
      },
    });
    expect(forced.dependencies).toEqual(manifest.dependencies);
  });
});
