import { auditOptions } from '#contract/audit'
import { optionsFrom } from '#src/crud/form/fields/options-source.ts'

/** The audit log's filter choices, from one call (each list's dropdown reads its part). */
export const adminOptions = optionsFrom(auditOptions, {}, (answer) => answer.admins)
export const areaOptions = optionsFrom(auditOptions, {}, (answer) => answer.areas)
export const actionOptions = optionsFrom(auditOptions, {}, (answer) => answer.actions)
