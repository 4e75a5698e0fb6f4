/** How a form label looks: the kit's Label, and the login screen's own labels. */
export const LABEL_CLASSES = 'text-sm font-medium text-slate-800'
