// Lint: TypeScript rules, React hooks, and the architecture's boundaries (docs/architecture.md is
// their source of truth: change both together): imports flow one way, ui <- lib <- crud <-
// features <- app in the PWA and db <- kit <- areas <- app in the server; PWA features never
// import each other and server areas never import each other; the kit imports no area; the
// contract stands alone; the server never reaches into the PWA; and no two modules import each
// other in a loop (in the server and the contract, not even through types). Formatting is left to
// the editor.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import { createNodeResolver, importX } from 'eslint-plugin-import-x'
import noCycleWithTypes from './lint/no-cycle-with-types.js'

/** The folders of a directory: the PWA's features, the server's areas. */
const foldersOf = (dir) =>
  readdirSync(join(import.meta.dirname, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)

/** Each feature folder may import only from itself (and the layers below). */
const features = foldersOf('src/features')

/** Each server area likewise (server/kit/request/areas.ts finds them by the same folders). */
const areas = foldersOf('server/areas')

const layers = {
  ui: './src/ui',
  lib: './src/lib',
  crud: './src/crud',
  features: './src/features',
  app: './src/app',
}

/** `target` may not import from any of `from`. */
const zone = (target, from, message) => ({ target, from, message })

const zones = [
  zone(layers.ui, [layers.lib, layers.crud, layers.features, layers.app], 'src/ui holds primitives only: it imports no other part of src/.'),
  zone(layers.lib, [layers.crud, layers.features, layers.app], 'src/lib may import src/ui only: pass what it needs in, or move the code up.'),
  zone(layers.crud, [layers.features, layers.app], 'src/crud is the kit: it may import src/lib and src/ui, never an area or the shell.'),
  zone(layers.features, [layers.app], 'An area may not import the shell (src/app): move the shared piece to src/lib or take it as a prop.'),
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: layers.features,
    except: [`./${name}`],
    message: 'An area never imports another area: move the shared piece down to src/crud or src/lib.',
  })),
  zone('./contract', ['./src', './server'], 'The contract stands alone: it imports nothing from src/ or server/.'),
  zone('./server', ['./src'], 'The server never imports the PWA (src/).'),
  zone('./server/kit', ['./server/areas'], 'The kit is what every area uses: it never imports an area. Pass the piece in, or move it down into the kit.'),
  zone('./server/db', ['./server/kit', './server/areas'], 'server/db is the ground floor (connection, schema, maintenance): it imports neither the kit nor an area.'),
]

/**
 * Production code only: a test may start the whole app whatever floor it tests. */
const productionZones = [
  ...zones,
  // The kit's floors import only downward: ground (infrastructure) <- request (the registrar, paging,
  // uploads, delete, undo) <- rules (what some areas share) <- the areas.
  zone('./server/kit/ground', ['./server/kit/request', './server/kit/rules', './server/app.ts'], 'server/kit/ground is infrastructure: it imports neither the request floor nor the rules. Move the piece down, or pass it in.'),
  zone('./server/kit/request', ['./server/kit/rules', './server/app.ts'], 'server/kit/request handles calls for every area: it imports no shared rule (server/kit/rules). Move the piece down, or take it as a hook.'),
  zone('./server/kit/rules', ['./server/app.ts'], 'A shared rule never imports the app.'),
  zone('./server/areas', ['./server/app.ts', './server/main.ts', './server/testing'], 'An area never imports the app or the test helpers: the app finds the areas, not the other way round.'),
  zone('./src', ['./server', './sw'], 'The PWA never imports server code or the service worker: share through contract/.'),
  zone('./sw', ['./src/app', './src/features', './src/crud', './server'], 'The service worker stands apart from the app: it may import src/lib and contract/ only.'),
  ...areas.map((name) => ({
    target: `./server/areas/${name}`,
    from: './server/areas',
    except: [`./${name}`],
    message: 'A server area never imports another area: move the shared piece down into server/kit (a helper or a narrow interface).',
  })),
]

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'data-*/', 'node_modules/', 'test-results/', 'playwright-report/', 'dev-dist/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['contract/**/*.ts', 'server/**/*.ts', 'src/**/*.{ts,tsx}', 'sw/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Resolves the package.json "imports" aliases (#contract/*, #src/*) the way Node and Vite do.
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/ignore': ['node_modules'],
    },
    rules: {
      // Type-only imports are erased at build, so they cannot make a loop at run time.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: productionZones }],
    },
  },
  {
    // Tests and their helpers keep the layers' rules but may start the whole app at any floor.
    // An area's samples.ts is test support too: the contract-wide tests collect it (server/testing/endpoint-samples.ts).
    // (The import rules cover contract/, server/ and src/ only: a test under scripts/ has none to relax.)
    files: ['{contract,server,src,sw}/**/*.test.ts', 'src/**/*.test.tsx', 'server/testing/**/*.ts', 'server/areas/*/samples.ts'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones }],
    },
  },
  {
    // No loop even through type-only imports (lint/no-cycle-with-types.js): a type loop still ties
    // the files' designs together, and it hides a runtime loop the day one import loses its `type`.
    files: ['contract/**/*.ts', 'server/**/*.ts', 'src/**/*.ts', 'src/**/*.tsx', 'sw/**/*.ts'],
    plugins: { boundaries: { rules: { 'no-cycle-with-types': noCycleWithTypes } } },
    rules: {
      'boundaries/no-cycle-with-types': 'error',
    },
  },
  {
    // The screen declarations load with every page, the login included (src/crud/screens/screens.ts):
    // screens come through lazyScreen and palette readers through a loader, never as static imports.
    files: ['src/features/*/screens.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^#contract/(?!routes$)',
              allowTypeImports: true,
              message: "Read records in the area's palette.ts (recordReader), loaded by paletteRecords(heading, async () => (await import('./palette.ts')).reader): a static import puts zod in the first load.",
            },
            { group: ['./palette', './palette.ts'], message: "The palette's readers load when it opens: paletteRecords(heading, async () => (await import('./palette.ts')).reader)." },
            { group: ['**/*.tsx'], message: 'Screens are lazy: lazyScreen(() => import(...), name).' },
            { regex: '^#src/lib/api(\\.ts)?$', allowTypeImports: true, message: 'Load the API client when the action runs (await import(...)): a static import puts zod in the first load.' },
          ],
        },
      ],
    },
  },
)
