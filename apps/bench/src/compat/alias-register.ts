// Loaded with `node --import`: runs the official-SDK server on @x/compat (see alias-hooks.ts).
import { register } from 'node:module';

register('./alias-hooks.js', import.meta.url);
