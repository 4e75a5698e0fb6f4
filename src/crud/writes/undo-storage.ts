/** Where the pending undos wait across a reload (sessionStorage; undo.ts keeps them, undo-keys.ts looks). */
export const PENDING_UNDOS_KEY = 'bo:pending-undos'
