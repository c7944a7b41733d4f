/**
 * The names of version-control metadata: a repository's own database and settings, which the
 * scan never reads and a rewind never writes (R19). A leaf module of erasable TypeScript, `.mts`
 * and without imports, so the scan worker loads it as it is (see journal/scan/scan-worker.mts).
 *
 * Folders: git (`.git`, also a file in a worktree or submodule), Mercurial, Jujutsu, Subversion,
 * Bazaar, Darcs, Pijul. Files: Fossil's checkout database (`.fslckout`, `_FOSSIL_` on Windows).
 * Compared in any case: on a case-insensitive disk `.HG` is the repository's `.hg`.
 */
export const VCS_METADATA_NAMES: readonly string[] = ['.git', '.hg', '.jj', '.svn', '.bzr', '_darcs', '.pijul', '.fslckout', '_fossil_']

const BY_LENGTH = new Set(VCS_METADATA_NAMES.map((name) => name.length))
const NAMES = new Set(VCS_METADATA_NAMES)

/** Whether a file or folder name (bytes, or latin1 text) is version-control metadata. */
export function isVcsMetadataName(name: Buffer | string): boolean {
  if (!BY_LENGTH.has(name.length)) return false // asked of every entry of a scan: most names end here
  return NAMES.has((typeof name === 'string' ? name : name.toString('latin1')).toLowerCase())
}
