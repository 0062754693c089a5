/**
 * `pnpm --dir apps/bench bundle-size`: the browser bundle of a small client app (connect, list tools,
 * call a tool) per transport, x-mcp next to the official SDK, minified and gzip; `--why` adds the bytes
 * each package contributes to the x-mcp bundles.
 */
import { bundleSizeTable, bytesByPackage, measureBundleSizes } from './bundle-size.js';

const sizes = await measureBundleSizes();
console.log(bundleSizeTable(sizes));
if (process.argv.includes('--why')) {
  for (const size of sizes.filter((entry) => entry.sdk === 'x-mcp')) {
    console.log(`\n${size.transport} (first download):`);
    for (const { name, bytes } of bytesByPackage(size.metafile, size.initialOutputs).slice(0, 8)) {
      console.log(`  ${(bytes / 1024).toFixed(1).padStart(7)} KiB  ${name}`);
    }
  }
}
