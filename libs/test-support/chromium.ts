/**
 * How tests and benches reach a browser: Debian's Chromium by default, or any Chromium-family
 * browser named by CHROMIUM_PATH (hosted CI runners ship Google Chrome). Playwright never
 * downloads a browser of its own here.
 */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The features Playwright itself switches off (playwright-core's `chromiumSwitches`), repeated
 * because Chromium keeps only the last `--disable-features` it is given: the list below would
 * otherwise turn them back on. tests/unit/chromium-args.test.ts holds it equal to Playwright's.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
] as const;

/**
 * Headless Chromium still builds the address bar's two suggestion popups, pages of its own UI,
 * for every window it opens, and each Playwright context opens one: without them a context and
 * its first page cost much less processor time (`npm run bench -- browser-context` measures it).
 * Pages never see them.
 */
export const BROWSER_UI_FEATURES_OFF = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'] as const;

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...BROWSER_UI_FEATURES_OFF].join(',')}`,
];
