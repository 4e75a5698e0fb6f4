// import-x's no-cycle with type-only imports counted. import-x skips them on purpose (they are
// erased at build, so they make no loop at run time), but a loop of types is still two modules
// that cannot be understood, moved or tested one without the other: where this rule applies
// (eslint.config.js, docs/architecture.md), a module and what it imports form no loop at all.
// It walks the graph import-x already parsed (ModuleInfo), which records every import with
// whether it brings only types; this rule simply does not filter those out.
import { ModuleInfo } from 'eslint-plugin-import-x/core/index'
import { isExternalModule, moduleVisitor, resolve } from 'eslint-plugin-import-x/utils'

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid a module from importing a module with a dependency path back to itself, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Dependency cycle (type-only imports count) via {{route}}' },
  },
  create(context) {
    const filename = context.physicalFilename
    if (filename === '<text>') return {}
    const external = (name) => isExternalModule(name, resolve(name, context), context)
    const traversed = new Set()
    return {
      ...moduleVisitor((sourceNode, importer) => {
        if (external(sourceNode.value)) return
        const imported = ModuleInfo.get(sourceNode.value, context)
        if (imported == null || imported.path === filename || traversed.has(imported.path)) return
        traversed.add(imported.path)
        // Breadth first from the imported module; a route back to this file is a cycle.
        const queue = [{ get: () => imported, route: [sourceNode.value] }]
        while (queue.length > 0) {
          const { get, route } = queue.shift()
          const module = get()
          if (module == null) continue
          for (const [path, { resolve: next, declarations }] of module.getImports()) {
            const first = [...declarations].find(({ source }) => !external(source.value))
            if (first === undefined) continue
            if (path === filename) {
              context.report({ node: importer, messageId: 'cycle', data: { route: [...route, first.source.value].join(' => ') } })
              return
            }
            if (traversed.has(path)) continue
            traversed.add(path)
            queue.push({ get: next, route: [...route, first.source.value] })
          }
        }
      }, { esmodule: true }),
    }
  },
}
