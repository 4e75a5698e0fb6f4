/**
 * Options loaded from a call, for `remoteSelect` and `searchMultiSelect`:
 *
 *     remoteSelect('categoryName', 'Category', optionsFrom(categoryDropdown, {}, (a) =>
 *       a.result.data.map((c) => ({ value: c._id, label: c.categoryName }))))
 *
 * The answer goes through the same SWR cache as the lists, so the options are shared between
 * forms, kept for offline reading, and refetched with everything else after a write.
 */
import type { Endpoint, Input, Output } from '#contract/define'
import { useCall } from '#src/lib/use-call.ts'
import type { SelectOption } from '#src/ui/select.tsx'
import { errorMessage } from '../error-message.ts'
import type { OptionSource, OptionsState } from '../form-fields.ts'

export function optionsFrom<E extends Endpoint>(endpoint: E, input: Input<E>, pick: (answer: Output<E>) => SelectOption[]): OptionSource {
  return {
    useOptions(): OptionsState {
      const { data, error, mutate } = useCall(endpoint, input, { revalidateOnFocus: false })
      if (data !== undefined) return { status: 'ready', options: pick(data) }
      if (error) return { status: 'error', message: errorMessage(error), retry: () => void mutate() }
      return { status: 'loading' }
    },
  }
}
