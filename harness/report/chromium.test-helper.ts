// The kit's pages as a reader sees them, for the project's tests: headless Chromium renders a
// page to a PNG and dumps its DOM once its scripts have run, in one launch.
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

/** Chromium's executable: $CHROMIUM, else the first `chromium` or `chromium-browser` on the PATH. */
export const CHROMIUM: string | undefined =
  process.env.CHROMIUM ||
  (process.env.PATH ?? '')
    .split(delimiter)
    .flatMap((d) => ['chromium', 'chromium-browser'].map((n) => join(d, n)))
    .find((p) => existsSync(p));

/** Why the browser tests cannot run here, or undefined when they can. */
export const CHROMIUM_MISSING = CHROMIUM ? undefined : 'headless Chromium is not installed (apt-get install chromium, or set CHROMIUM to its path; CI installs it)';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export interface Rendered {
  /** the PNG written under `dir` */
  png: string;
  /** the DOM after the page's scripts ran */
  dom: string;
}

/**
 * Writes `html` to `dir/name.html`, opens it (with `hash`, e.g. "#check-x") in headless Chromium
 * at the window's size, and returns the screenshot's path and the DOM.
 */
export async function render(dir: string, name: string, html: string, o: { width?: number; height?: number; hash?: string } = {}): Promise<Rendered> {
  if (!CHROMIUM) throw new Error(CHROMIUM_MISSING);
  const page = join(dir, `${name}.html`);
  const png = join(dir, `${name}.png`);
  writeFileSync(page, html);
  const { stdout } = await promisify(execFile)(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
      `--user-data-dir=${join(dir, `profile-${name}`)}`,
      `--window-size=${o.width ?? 1400},${o.height ?? 3000}`,
      `--screenshot=${png}`,
      '--dump-dom',
      `file://${page}${o.hash ?? ''}`,
    ],
    // a safety net for a hung browser, far above the seconds a page takes on a busy machine
    { timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
  );
  return { png, dom: stdout };
}
