import { useSyncExternalStore } from 'react'
import { Toast } from 'radix-ui'
import { getToasts, subscribeToasts, toast, type ToastItem } from '#src/lib/toast.ts'
import { cn } from './cn.ts'

const tone: Record<ToastItem['kind'], string> = {
  success: 'border-emerald-600 bg-emerald-50 text-emerald-900',
  error: 'border-red-600 bg-red-50 text-red-900',
  info: 'border-slate-400 bg-white text-slate-900',
}

/** Mounted once by the app; renders the toasts of `toast.success/error` top right. */
export function Toaster() {
  const items = useSyncExternalStore(subscribeToasts, getToasts, getToasts)
  return (
    <Toast.Provider swipeDirection="right">
      {items.map((item) => (
        <Toast.Root
          key={item.id}
          duration={item.duration}
          type={item.kind === 'error' ? 'foreground' : 'background'}
          onOpenChange={(open) => (open ? null : toast.dismiss(item.id))}
          className={cn('flex items-start gap-3 rounded-md border-l-4 px-4 py-3 text-sm shadow-lg', tone[item.kind])}
          data-kind={item.kind}
        >
          <Toast.Description className="flex-1">{item.message}</Toast.Description>
          {item.action ? (
            <Toast.Action asChild altText={item.action.label}>
              <button
                type="button"
                className="rounded border border-current px-2 py-0.5 font-medium"
                onClick={item.action.run}
              >
                {item.action.label}
              </button>
            </Toast.Action>
          ) : null}
          <Toast.Close aria-label="Dismiss" className="px-1 leading-none opacity-70 hover:opacity-100">
            ×
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="fixed top-4 right-4 z-[100] flex w-80 max-w-[calc(100vw-2rem)] flex-col gap-2 outline-none" />
    </Toast.Provider>
  )
}
