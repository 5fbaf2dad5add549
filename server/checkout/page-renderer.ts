/**
 * The hosted page's server rendering (shared/checkout/page-render.ts): the widget's own components,
 * built by `npm run build` into dist/widget-ssr/render-page.js, loaded once by path. A build
 * artefact, not part of the server's code: where it is missing (tests that build nothing, a
 * development checkout before its first build) the page goes out as before, its state in the HTML
 * for the app to render in the browser, and the log says so once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RenderPayPage } from '../../shared/checkout/page-render.ts';
import { runtimePath } from '../runtime-files.ts';

export const RENDERER_DIR = runtimePath('widgetRenderer');

/** The renderer in `dir`, or null when that build is not there (or cannot be loaded). */
export async function loadPageRenderer(dir = RENDERER_DIR): Promise<RenderPayPage | null> {
  const file = path.join(dir, 'render-page.js');
  if (!fs.existsSync(file)) return null;
  // A file of the build, found at run time: its packages (preact, preact-render-to-string) are
  // production dependencies, which test/system/compiled-server.test.ts checks on this file too.
  const rendererModuleUrl = pathToFileURL(file).href;
  const loaded = (await import(rendererModuleUrl)) as { renderPayPage?: unknown };
  return typeof loaded.renderPayPage === 'function' ? (loaded.renderPayPage as RenderPayPage) : null;
}
