// No module of src/ imports itself through others: the stores are layered
// (see stores/bus.ts) and this test keeps them so. It reads every source
// file's relative imports (type-only ones too: they mark the same coupling)
// and fails naming each cycle it finds.

import {readdirSync, readFileSync, statSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'

const SRC = resolve(__dirname)
const EXTS = ['.ts', '.tsx']

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) return sources(p)
    return EXTS.some((e) => name.endsWith(e)) && !name.endsWith('.d.ts') ? [p] : []
  })
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g

/** The files under src/ that file imports by a relative path. */
export function importsOf(file: string, text: string, known: Set<string>): string[] {
  const out: string[] = []
  for (const m of text.matchAll(IMPORT)) {
    const base = resolve(dirname(file), m[1] ?? m[2])
    const hit = [base, ...EXTS.map((e) => base + e), ...EXTS.map((e) => join(base, 'index' + e))].find((p) => known.has(p))
    if (hit) out.push(hit)
  }
  return out
}

/** Every cycle of graph, each once, as the files in import order. */
export function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = []
  const seen = new Set<string>()
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (n: string) => {
    state.set(n, 'open')
    stack.push(n)
    for (const next of graph.get(n) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next))
        const key = [...cycle].sort().join('|')
        if (!seen.has(key)) {
          seen.add(key)
          found.push([...cycle, next])
        }
      } else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(n, 'done')
  }
  for (const n of [...graph.keys()].sort()) if (!state.has(n)) visit(n)
  return found
}

describe('imports', () => {
  it('finds a cycle when there is one', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])
    expect(cycles(g)).toEqual([['a', 'b', 'c', 'a']])
    expect(cycles(new Map([['a', ['b']], ['b', []]]))).toEqual([])
  })

  it('reads import, import type, export from and bare imports', () => {
    const known = new Set(['/s/a.ts', '/s/b.tsx', '/s/c/index.ts', '/s/d.ts'])
    const text = "import {x} from './b'\nimport type {T} from \"./c\"\nexport {y} from './d'\nimport './a'\nimport {z} from 'zustand'\n"
    expect(importsOf('/s/a.ts', text, known)).toEqual(['/s/b.tsx', '/s/c/index.ts', '/s/d.ts', '/s/a.ts'])
  })

  it('has no cycle in src/', () => {
    const files = sources(SRC)
    const known = new Set(files)
    const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(f, 'utf8'), known)]))
    const found = cycles(graph).map((c) => c.map((f) => relative(SRC, f)).join(' → '))
    expect(found).toEqual([])
  })
})
