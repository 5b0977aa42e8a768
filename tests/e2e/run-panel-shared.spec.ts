/**
 * What every Run panel shares, checked once per entry of the registry
 * (src/components/RunPanel/registry.ts) and per page that places it: the keyboard alone runs it
 * (Tab reaches Run, Enter runs, the polite live region announces the end, the focus stays), every
 * event is timed, axe finds nothing in the panel with its inputs open and its events listed, the
 * page never scrolls sideways at 375 or 1280 px, and no request leaves the site. A panel added to
 * the registry is checked here with no new test; what a particular run shows is in its own spec
 * (run-panel-<example>.spec.ts).
 *
 * One visit per panel: the checks are made in turn on the same page, at 375 px first, where the
 * panel's controls are narrowest.
 */
import { expect, test } from '@playwright/test';
import { RUN_PANELS, type RunExample } from '../../src/components/RunPanel/registry';
import {
  NARROW,
  VIEWPORTS,
  expectEveryEventTimed,
  offSiteRequests,
  openEditors,
  panelViolations,
  runWithKeyboard,
  sidewaysOverflow,
} from './support/run-panel';
import { waitForHydration } from './support/shell';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const id of Object.keys(RUN_PANELS) as RunExample[]) {
  const entry = RUN_PANELS[id];
  for (const { path } of entry.pages) {
    test(`${id} on ${path}: keyboard, timed events, axe, no sideways scroll, nothing leaves the site [claim:contributing-run-panel-shared-checks] [claim:gs-run-panel-events] [claim:gs-run-panel-offline]`, async ({
      page,
      baseURL,
    }) => {
      // axe over a panel with its events listed takes a few seconds on a loaded machine.
      test.slow();
      await page.setViewportSize({ width: NARROW.width, height: NARROW.height });
      const offSite = offSiteRequests(page, baseURL);
      await page.goto(path);
      await waitForHydration(page);
      await expect(page.locator(`[data-run-panel="${id}"]`)).toHaveCount(1);
      await runWithKeyboard(
        page,
        new RegExp(`^${escape(entry.button)}$`),
        /^Task \w+ after \d+ events\./,
      );
      await expectEveryEventTimed(page);
      await openEditors(page);
      expect(await panelViolations(page)).toEqual([]);
      for (const viewport of [NARROW, ...VIEWPORTS.filter((each) => each !== NARROW)]) {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        expect(await sidewaysOverflow(page), viewport.label).toBeLessThanOrEqual(0);
      }
      expect(offSite).toEqual([]);
    });
  }
}
