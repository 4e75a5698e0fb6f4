/**
 * `npm run restore -- FILE [--force]`: puts a backup (scripts/backup.ts) into the database and
 * storage of this environment, an empty DATA_DIR or an empty PostgreSQL database, whichever
 * engine made it (server/kit/ground/backup/restore.ts). docs/operations.md, "Backups", walks through it.
 */
import { resolve } from 'node:path'
import { loadConfig } from '../server/config.ts'
import { describeContents } from '../server/kit/ground/backup/format.ts'
import { FORCE_MEANS, RestoreRefused, restoreFromFile } from '../server/kit/ground/backup/restore.ts'

const USAGE = `Usage: npm run restore -- FILE [--force]

Restores the backup FILE into the database and storage of this environment (DATA_DIR, or
DATABASE_URL, and the storage settings), which must be empty. Stop the server first.
${FORCE_MEANS}.`

async function main(args: readonly string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const files = args.filter((a) => !a.startsWith('-'))
  const file = files[0]
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--force')
  if (file === undefined || files.length > 1 || unknown.length > 0) {
    process.stderr.write(`${USAGE}\n`)
    return 2
  }
  const config = loadConfig()
  const started = performance.now()
  const summary = await restoreFromFile(config, resolve(file), { force: args.includes('--force'), log: (line) => process.stdout.write(`${line}\n`) })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  process.stdout.write(`Restored ${describeContents(summary, summary.header.uploads.included)} in ${seconds} s. Start the server.\n`)
  for (const note of summary.notes) process.stdout.write(`${note}\n`)
  return 0
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(error instanceof RestoreRefused ? `Restore refused: ${message}\n` : `Restore failed: ${message}\n`)
    process.exit(1)
  },
)
