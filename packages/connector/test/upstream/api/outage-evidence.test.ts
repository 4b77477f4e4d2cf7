import { describe, expect, it } from 'vitest'
import { OutageEvidence } from '../../../src/upstream/api/outage-evidence.js'

/** When the evidence says the provider is down for everyone, and when it says it is not. */

const WINDOW = 5_000

describe('the evidence of an outage', () => {
  it('everyone’s calls failing, twice each: down', () => {
    const evidence = new OutageEvidence(WINDOW)
    for (const person of ['a', 'b', 'a']) evidence.failed(person, 1_000)
    expect(evidence.down(1_000)).toBe(false) // b has failed once only
    evidence.failed('b', 1_100)
    expect(evidence.down(1_100)).toBe(true)
  })

  it('one person, however many failures: not down', () => {
    const evidence = new OutageEvidence(WINDOW)
    for (let i = 0; i < 1_000; i++) evidence.failed('a', 1_000 + i)
    expect(evidence.down(2_000)).toBe(false)
  })

  it('anyone answered lately: not down, even when two others fail every call', () => {
    const evidence = new OutageEvidence(WINDOW)
    evidence.answered('c', 1_000)
    for (let i = 0; i < 10; i++) for (const person of ['a', 'b']) evidence.failed(person, 1_000 + i)
    expect(evidence.down(1_100)).toBe(false)
    // Once c's answer is past the window (c has not called since), a and b are everyone.
    expect(evidence.down(1_000 + WINDOW + 1)).toBe(true)
  })

  it('a blip: a failure here and there between answers is never two in a row', () => {
    const evidence = new OutageEvidence(WINDOW)
    for (let i = 0; i < 100; i++) {
      for (const person of ['a', 'b', 'c'])
        if (i % 10 === 0) evidence.failed(person, i)
        else evidence.answered(person, i)
      expect(evidence.down(i)).toBe(false)
    }
  })

  it('an answer starts a person’s count again; a failure long ago does not count', () => {
    const evidence = new OutageEvidence(WINDOW)
    evidence.failed('a', 0)
    evidence.failed('a', 1)
    evidence.answered('a', 2)
    evidence.failed('a', 3)
    evidence.failed('b', 0)
    evidence.failed('b', 10_000)
    evidence.failed('b', 10_001)
    evidence.failed('a', 10_002)
    expect(evidence.down(10_002)).toBe(false) // a: one failure in the window
    evidence.failed('a', 10_003)
    expect(evidence.down(10_003)).toBe(true)
  })
})
