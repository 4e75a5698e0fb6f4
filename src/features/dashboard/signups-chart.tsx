/**
 * Sign-ups per day as plain SVG bars (no chart library: 30 rectangles do not need one), loaded
 * as a chunk of its own. Screen readers get one sentence on the image and the numbers in a
 * visually hidden table; a pointer gets each bar's day and count as its title.
 */
import { plural } from '#contract/common'
import type { SignupDay } from '#contract/dashboard'
import { formatDay } from '#src/lib/dates.ts'

const BAR = 8
const GAP = 2
const HEIGHT = 80

/** "Sign-ups per day from Oct 25 to Nov 23: 42 in total, the most on Nov 20 (5)." */
export function chartSummary(days: readonly SignupDay[]): string {
  const first = days[0]
  const last = days[days.length - 1]
  if (first === undefined || last === undefined) return 'No sign-up data'
  const total = days.reduce((sum, d) => sum + d.count, 0)
  const range = `Sign-ups per day from ${formatDay(first.day, 'long')} to ${formatDay(last.day, 'long')}`
  if (total === 0) return `${range}: none.`
  const busiest = days.reduce((best, d) => (d.count > best.count ? d : best), first)
  return `${range}: ${total} in total, the most on ${formatDay(busiest.day, 'long')} (${busiest.count}).`
}

export function SignupsChart({ days }: { days: readonly SignupDay[] }) {
  const max = Math.max(1, ...days.map((d) => d.count))
  const width = days.length * (BAR + GAP) - GAP
  const first = days[0]
  const last = days[days.length - 1]
  return (
    <figure className="flex flex-col gap-1">
      <div className="flex gap-2">
        {/* The scale: the tallest bar's count at the top, zero at the baseline. */}
        <span aria-hidden="true" className="flex w-8 shrink-0 flex-col justify-between text-right text-xs text-slate-500">
          <span>{max}</span>
          <span>0</span>
        </span>
        <svg
          role="img"
          aria-label={chartSummary(days)}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          preserveAspectRatio="none"
          className="h-24 w-full border-b border-l border-slate-300"
        >
          {days.map((d, i) => {
            // A day without sign-ups keeps a sliver, so the gap reads as a zero and not as missing data.
            const h = d.count === 0 ? 1 : Math.max(2, (d.count / max) * HEIGHT)
            return (
              <rect key={d.day} x={i * (BAR + GAP)} y={HEIGHT - h} width={BAR} height={h} className={d.count === 0 ? 'fill-slate-200' : 'fill-indigo-600'}>
                <title>{`${formatDay(d.day, 'long')}: ${plural(d.count, 'sign-up')}`}</title>
              </rect>
            )
          })}
        </svg>
      </div>
      {first && last ? (
        <figcaption aria-hidden="true" className="flex justify-between pl-10 text-xs text-slate-500">
          <span>{formatDay(first.day, 'short')}</span>
          <span>{formatDay(last.day, 'short')}</span>
        </figcaption>
      ) : null}
      <table className="sr-only">
        <caption>Sign-ups per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Sign-ups</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <td>{formatDay(d.day, 'long')}</td>
              <td>{d.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
