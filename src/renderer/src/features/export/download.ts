/**
 * Hand a file to the user: a download in the browser; in the desktop app Electron turns the
 * same download into its Save dialog (no save path is preset), so both bindings share this.
 */
export function downloadFile(fileName: string, mimeType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has its own copy once it has started; the next task is late enough.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
