/**
 * The contract in the browser build: each endpoint named where it is declared, so that a page's
 * bundle holds only the endpoints (and zod schemas) it uses.
 *
 * A contract module names its endpoints at run time, at its end, with `nameEndpoints(self)` over
 * its own namespace (contract/define.ts): the name is written once, as the export. But a module
 * that reads its whole namespace keeps every export alive, so every page that called one endpoint
 * of a module carried all of them. For the browser build (vite.config.ts) this rewrites
 *
 *     export const getuser = endpoint({ ... })        as  export const getuser = namedEndpoint('getuser', { ... })
 *     export const Lead = z.object({ ... })            as  export const Lead = z.object({ ... }) marked pure
 *     import * as self from './leads.ts'; nameEndpoints(self)      as nothing
 *
 * The same name, the same path, no run-time pass. A module that exports values taken from another
 * (links.ts and passkeys.ts take endpoints from a factory's answer) is left as it is: only
 * `export const X = endpoint(` is seen here, so dropping its naming pass would leave those unnamed. contract/build-names.test.ts
 * checks, module by module, that what this names is exactly what `nameEndpoints` names.
 *
 * Lines are only changed within themselves (a removed line stays as an empty one), so line
 * numbers, and with them the source maps' lines, stay as they were.
 */

const DIRECT = /^export const (\w+) = endpoint\(/gm
/** Any other export made by a call (a schema, a helper's answer): declarations, free of side effects. */
const MADE_BY_CALL = /^export const (\w+) = (?=[\w.]+\()/gm
const SELF_IMPORT = /^import \* as self from '[^']+'$/m
const NAMING_PASS = /^nameEndpoints\(self\)$/m

/** The names of the endpoints a module declares as `export const X = endpoint(`. */
export const directEndpointNames = (source: string): string[] => [...source.matchAll(DIRECT)].map((m) => m[1] ?? '')

/** The module rewritten for the browser build, or null to leave it as it is. */
export function nameAtBuild(source: string): string | null {
  if (!NAMING_PASS.test(source) || !SELF_IMPORT.test(source)) return null
  // Endpoints taken from a factory's answer (`export const { list: ListBuyLink } = buyLinks`,
  // `export const addPasskey = adding.finish`) are named by the pass alone: keep it.
  // (A chain that goes on on the next line, `z\n  .string()`, is a call, not such a value.)
  if (/^export const (\{|\w+ = [A-Za-z_$][\w$.]*[ \t]*$(?!\n\s*\.))/m.test(source)) return null
  return source
    .replace(DIRECT, (_, name: string) => `export const ${name} = /* @__PURE__ */ namedEndpoint('${name}', `)
    .replace(MADE_BY_CALL, (_, name: string) => `export const ${name} = /* @__PURE__ */ `)
    .replace(SELF_IMPORT, "import { namedEndpoint } from './define.ts'")
    .replace(NAMING_PASS, '')
}
