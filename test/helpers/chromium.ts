import { chromium, type Browser } from 'playwright-core';
import tap from 'tap';

/** Debian's Chromium, which .ci/run installs. */
export const CHROMIUM = '/usr/bin/chromium';
/** Headless, and no background connections: this machine's closed network refuses them, many at a time. */
export const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

let launched: Promise<Browser> | undefined;

/**
 * The test file's one Chromium, started at the first call and closed when the file ends: a
 * start is several processes and a second or more of CPU, paid once per file rather than
 * per test. A test's pages are in contexts of their own (`newContext`, `newPage`), which
 * share no cookies or storage with another test's; they are closed when `t` ends (the
 * file's tests run one at a time).
 */
export async function sharedChromium(t: { teardown(fn: () => unknown): void }): Promise<Browser> {
  if (launched === undefined) {
    const starting = chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    launched = starting;
    tap.teardown(async () => (await starting).close());
  }
  const browser = await launched;
  t.teardown(() => Promise.all(browser.contexts().map((context) => context.close())));
  return browser;
}
