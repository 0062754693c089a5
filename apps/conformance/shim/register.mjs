// Loaded with `node --import ./shim/register.mjs` in front of the conformance CLI only.
// The CLI bundle imports `globSync` from 'fs', which exists from Node 22 on; on Node 20 the import
// fails at link time, even for `--help`. See /work/shared/CONFORMANCE.md §6 (Fix B).
import { register } from 'node:module';

register(new URL('./hooks.mjs', import.meta.url));
