// `npm run lint:graph`: the import graph of src/ has no cycle. (The direction of layers is
// ESLint's job, eslint-rules/layers.mjs; this sees whole chains, which ESLint cannot.)
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'A cycle ties modules together so neither can be read, tested or moved alone; type-only imports count too.',
      severity: 'error',
      from: {},
      to: { circular: true }
    }
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^out/'] }
  }
}
