import { describe, expect, it, vi } from 'vitest'
import { RetraceError } from '../../shared/contract'
import { tempRuntime } from '../testing/temp-runtime'
import { createDispatcher, type Handlers } from './dispatcher'

describe('the handler wrapper', () => {
  const rt = tempRuntime()
  const handlers = rt.handlers

  it('refuses a caller the binding does not trust, before reading the input', async () => {
    const spy = vi.fn(handlers['app.info'])
    const dispatch = createDispatcher<string>({ handlers: { ...handlers, 'app.info': spy }, authorize: (caller) => (caller === 'good' ? null : 'go away') })
    expect(await dispatch('app.info', {}, 'bad')).toEqual({ ok: false, error: { code: 'UNAUTHORIZED', message: 'go away' } })
    expect(spy).not.toHaveBeenCalled()
    expect(await dispatch('app.info', {}, 'good')).toMatchObject({ ok: true, data: { name: 'Retrace', binding: 'web' } })
  })

  it('passes a RetraceError through with its code, and turns anything else into INTERNAL', async () => {
    const onInternalError = vi.fn()
    const broken: Handlers = {
      ...handlers,
      'workspaces.get': () => {
        throw new RetraceError('NOT_FOUND', 'gone')
      },
      'app.info': () => {
        throw new TypeError('boom')
      }
    }
    const dispatch = createDispatcher<null>({ handlers: broken, authorize: () => null, onInternalError })
    expect(await dispatch('workspaces.get', { workspaceId: 1 }, null)).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'gone' } })
    expect(await dispatch('app.info', {}, null)).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'app.info failed unexpectedly: boom' } })
    expect(onInternalError).toHaveBeenCalledOnce()
  })

  it('checks outputs against the contract too', async () => {
    const onInternalError = vi.fn()
    const lying = { ...handlers, 'app.info': () => ({ name: 42 }) } as unknown as Handlers
    const dispatch = createDispatcher<null>({ handlers: lying, authorize: () => null, onInternalError })
    const result = await dispatch('app.info', {}, null)
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } })
    expect(String(onInternalError.mock.calls[0]?.[1])).toMatch(/broke the contract/)
  })

  it('fills defaults and strips nothing it should keep', async () => {
    const dispatch = createDispatcher<null>({ handlers, authorize: () => null })
    expect(await dispatch('workspaces.listRecent', undefined, null)).toEqual({ ok: true, data: { items: [] } })
  })
})
