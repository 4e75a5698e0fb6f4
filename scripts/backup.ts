/**
 * `npm run backup -- FILE`: one file holding the database and, with local storage, the uploads,
 * read from one snapshot whether or not the server runs (server/kit/ground/backup/write.ts). Run it with
 * the server's own environment: DATA_DIR (the embedded database), or DATABASE_URL, and the storage
 * settings. docs/operations.md, "Backups", walks through it.
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ConfigError, JWT_SECRET_FILE, loadConfig } from '../server/config.ts'
import { describeContents } from '../server/kit/ground/backup/format.ts'
import { backupToFile } from '../server/kit/ground/backup/write.ts'

const USAGE = `Usage: npm run backup -- FILE [--with-secrets]

Writes a backup of the database (and, with local storage, the uploads) into FILE, with the
server's environment (DATA_DIR, or DATABASE_URL, and the storage settings). A running server on
the embedded database is asked for a snapshot; it goes on serving.

--with-secrets  also put the token key generated in DATA_DIR/jwt-secret into FILE (left out by
                default: keep that file apart from the backups)`

async function main(args: readonly string[]): Promise<number> {
  const files = args.filter((a) => !a.startsWith('-'))
  const withSecrets = args.includes('--with-secrets')
  const file = files[0]
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (file === undefined || files.length > 1 || args.some((a) => a.startsWith('-') && a !== '--with-secrets')) {
    process.stderr.write(`${USAGE}\n`)
    return 2
  }
  // loadConfig makes a key when DATA_DIR has none: then it is not the key the data was sealed with.
  const dataDir = resolve((process.env['DATA_DIR'] ?? '').trim() === '' ? './data' : (process.env['DATA_DIR'] ?? ''))
  const hadKey = existsSync(join(dataDir, JWT_SECRET_FILE))
  let config = loadConfig()
  const notes: string[] = []
  if (config.jwtSecretFile !== null && !hadKey) {
    config = { ...config, jwtSecretFile: null }
    notes.push(`There was no ${join(dataDir, JWT_SECRET_FILE)} and JWT_SECRET is not set, so this backup holds no token key: keep the key the server uses with it (is DATA_DIR the server's?).`)
  }
  const started = performance.now()
  const summary = await backupToFile(config, resolve(file), { withSecrets })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  process.stdout.write(`Backup written to ${summary.file}: ${describeContents(summary, config.s3 === null)}, from ${summary.via}, in ${seconds} s.\n`)
  for (const note of [...summary.notes, ...notes]) process.stdout.write(`${note}\n`)
  return 0
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`Backup failed: ${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  },
)
