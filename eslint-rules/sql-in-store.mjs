// @ts-check
// Retrace's SQL lives in the store (src/main/store/**): anything else calls a repository.
// This rule finds `.prepare(`, `.exec(` and `.pragma(` called on a better-sqlite3 Database
// (by its type, so a writer's own `prepare` or a RegExp's `exec` are not mistaken for SQL).
// The config turns it off where SQL belongs: the store, the readers of agents' own databases
// (src/main/sources/foreign-db/), tests and benchmarks.
import { ESLintUtils } from '@typescript-eslint/utils'

const SQL_METHODS = new Set(['prepare', 'exec', 'pragma', 'transaction'])

/** Whether `type` is better-sqlite3's Database (declared in its type package). */
function isSqliteDatabase(type) {
  const symbol = type.getSymbol() ?? type.aliasSymbol
  if (!symbol) return false
  return (symbol.getDeclarations() ?? []).some((declaration) => /[\\/]@types[\\/]better-sqlite3[\\/]/.test(declaration.getSourceFile().fileName))
}

export const sqlInStore = ESLintUtils.RuleCreator.withoutDocs({
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      sqlOutsideStore: 'SQL belongs in src/main/store: add a method to a repository there and call it (see docs/architecture.md).'
    }
  },
  defaultOptions: [],
  create(context) {
    const services = ESLintUtils.getParserServices(context)
    return {
      CallExpression(node) {
        const callee = node.callee
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier' || !SQL_METHODS.has(callee.property.name)) return
        if (isSqliteDatabase(services.getTypeAtLocation(callee.object))) context.report({ node, messageId: 'sqlOutsideStore' })
      }
    }
  }
})

export default { rules: { 'sql-in-store': sqlInStore } }
