/**
 * `npm run check:cycles` (part of `npm test`): no folder may reach itself through imports. A
 * cycle between folders means neither can be understood, tested or moved without the other; a
 * folder that needs something of another's declares a port and the other implements it.
 * Cycles between files are folder cycles too, so this rule covers them.
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'A folder reaches itself through its imports: give one side a port the other implements.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-file-cycle',
      severity: 'error',
      comment: 'A file reaches itself through its imports.',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|tmp|coverage|\\.angular|\\.nx)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
