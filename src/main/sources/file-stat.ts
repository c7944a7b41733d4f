/** What a file is, as its reader found it when it opened it. */
export interface FileStat {
  dev: number
  ino: number
  size: number
  mtimeMs: number
}
