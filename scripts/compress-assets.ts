/**
 * Compresses the widget's built files once, at build time (issue 14 §14): beside each text file of
 * dist/widget go `<file>.br` (Brotli, quality 11) and `<file>.gz` (gzip, level 9), which the server
 * sends by content negotiation (server/http/widget-assets.ts, @fastify/static `preCompressed`)
 * and nginx could too. Per request nothing is compressed for these files. `npm run build` runs it
 * after the widget builds:
 *
 *   node --import tsx scripts/compress-assets.ts [DIR]   (default dist/widget)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text files worth compressing; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|map|txt|xml)$/;
/** Below this, a compressed answer saves less than the header costs (nginx's gzip_min_length). */
export const MIN_BYTES = 256;

export interface CompressedFile {
  file: string;
  bytes: number;
  br: number;
  gz: number;
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

/** Writes `.br` and `.gz` beside every compressible file of `dir` that gets smaller; answers what it wrote. */
export function compressAssets(dir: string): CompressedFile[] {
  const written: CompressedFile[] = [];
  for (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const body = fs.readFileSync(file);
    // A file from an earlier build whose text changed must not keep a stale twin.
    for (const ext of ['.br', '.gz']) fs.rmSync(file + ext, { force: true });
    if (body.length < MIN_BYTES) continue;
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    const gz = gzipSync(body, { level: 9 });
    if (br.length < body.length) fs.writeFileSync(`${file}.br`, br);
    if (gz.length < body.length) fs.writeFileSync(`${file}.gz`, gz);
    written.push({ file: path.relative(dir, file), bytes: body.length, br: br.length, gz: gz.length });
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = path.resolve(process.argv[2] ?? 'dist/widget');
  const files = compressAssets(dir);
  const total = (key: 'bytes' | 'br' | 'gz') => files.reduce((sum, f) => sum + f[key], 0);
  process.stdout.write(
    `compressed ${files.length} files in ${path.relative(process.cwd(), dir) || '.'}: ` +
      `${total('bytes')} bytes → ${total('br')} br, ${total('gz')} gzip\n`,
  );
}
