// pnpm hooks for this workspace. `beforePacking` shapes the package.json that goes into every tarball
// (`pnpm pack` and `pnpm publish`); the package.json in the repository is unchanged.
'use strict';

/** The export condition that points the workspace at TypeScript sources, which are not published. */
const SOURCE_CONDITION = '@x/source';

/** A copy of an `exports` value without the source-only condition, at any depth. */
function withoutSourceCondition(value) {
  if (typeof value !== 'object' || value === null) return value;
  const out = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key !== SOURCE_CONDITION) out[key] = withoutSourceCondition(inner);
  }
  return out;
}

/**
 * What a consumer of a published package needs, nothing more: the `@x/source` condition points at
 * `./src/*.ts`, which is not in the tarball; devDependencies name private workspace packages (`@x/build`,
 * `@x/test-kit`) that are not on the registry; scripts only make sense in the repository.
 */
function beforePacking(pkg) {
  if (pkg.exports !== undefined) pkg.exports = withoutSourceCondition(pkg.exports);
  delete pkg.devDependencies;
  delete pkg.scripts;
  return pkg;
}

module.exports = { hooks: { beforePacking } };
