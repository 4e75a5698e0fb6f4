/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin of the API server; empty means the origin the PWA is served from. */
  readonly VITE_API_URL?: string
}

interface ImportMeta {
  readonly env: ImportMetaEnv
}
