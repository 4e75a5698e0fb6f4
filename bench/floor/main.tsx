/** The budget's floor (bench/budget.ts): React 19 and react-dom alone, rendering one button. */
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'

const root = document.getElementById('root')
if (root) {
  createRoot(root).render(
    <StrictMode>
      <main>
        <button type="button">Continue</button>
      </main>
    </StrictMode>,
  )
}
