// The parser lives in shared/ so the window can render an apply_patch call as a diff.
export * from '../../../shared/apply-patch'
