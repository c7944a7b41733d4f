import { useState, type RefObject } from 'react'

/**
 * A field showing "Turn 1–12": type a turn number and Enter to bring it to the top (`g` focuses
 * it from anywhere in the transcript). Turns beyond the loaded pages are loaded on the way.
 */
export function JumpToTurn({ turnCount, inputRef, onJump, onDone }: { turnCount: number; inputRef: RefObject<HTMLInputElement | null>; onJump: (turn: number) => void; onDone: () => void }) {
  const [value, setValue] = useState('')
  const [invalid, setInvalid] = useState(false)
  if (turnCount < 2) return null
  return (
    <label className="jump-to-turn" title={`Go to a turn (1–${turnCount}); press g to get here, j / k for the next and previous turn`}>
      <span className="visually-hidden">Turn</span>
      <input
        ref={inputRef}
        className="input jump-input"
        data-testid="jump-to-turn"
        inputMode="numeric"
        placeholder={`Turn 1–${turnCount}`}
        aria-label={`Go to turn (1 to ${turnCount})`}
        aria-invalid={invalid}
        value={value}
        onChange={(event) => {
          setValue(event.target.value.replace(/[^\d]/g, '').slice(0, 7))
          setInvalid(false)
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault()
            setValue('')
            setInvalid(false)
            onDone()
          } else if (event.key === 'Enter') {
            event.preventDefault()
            const turn = Number(value)
            if (!value || !Number.isInteger(turn) || turn < 1 || turn > turnCount) {
              setInvalid(true)
              return
            }
            onJump(turn)
            setValue('')
            onDone()
          }
        }}
      />
    </label>
  )
}
