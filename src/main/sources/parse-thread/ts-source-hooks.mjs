// Lets a worker thread run this repository's TypeScript sources directly (vitest, the
// benchmarks run from source): Node strips the types (--experimental-transform-types), and this
// resolver adds the `.ts` that the sources' imports leave out, as the bundler does. Registered
// by ts-source-register.mjs; the built app never uses it.

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context)
  } catch (error) {
    if (!/^\.{1,2}\//.test(specifier) || /\.[cm]?[jt]sx?$/.test(specifier)) throw error
    for (const suffix of ['.ts', '/index.ts']) {
      try {
        return await next(`${specifier}${suffix}`, context)
      } catch {
        // the next candidate
      }
    }
    throw error
  }
}
