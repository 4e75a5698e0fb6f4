import { Link } from 'wouter'
import { useSession } from '#src/lib/session.ts'
import { HOME } from '#src/lib/base.ts'

/** Any unknown path (requirements R2.3). */
export function NotFound() {
  const { isAuth } = useSession()
  return (
    <main className="grid min-h-full place-items-center p-6">
      <div className="max-w-md text-center">
        <p className="text-sm font-semibold text-indigo-700">404</p>
        <h1 className="mt-2 text-2xl font-semibold">Not Found</h1>
        <p className="mt-2 text-slate-700">There is no page at this address.</p>
        <Link href={isAuth ? HOME : '/login'} className="mt-6 inline-block font-medium text-indigo-700 underline">
          {isAuth ? 'Back to the back office' : 'Go to login'}
        </Link>
      </div>
    </main>
  )
}
