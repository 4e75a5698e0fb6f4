/** The package ships no types; the tests check its output's shape with zod. */
declare module 'parse-prometheus-text-format' {
  export default function parsePrometheusTextFormat(text: string): unknown
}
