import {describe, expect, it} from 'vitest'
import {maskUrl} from './maskUrl'

describe('maskUrl', () => {
  it.each([
    ['https://mcp.example.com/mcp', 'https://mcp.example.com/mcp'],
    ['https://me:hunter22@mcp.example.com/mcp', 'https://me:•••@mcp.example.com/mcp'],
    ['https://me@mcp.example.com:8443/mcp', 'https://me@mcp.example.com:8443/mcp'],
    ['https://server.smithery.ai/x/mcp?api_key=abc123&profile=work', 'https://server.smithery.ai/x/mcp?api_key=•••&profile=work'],
    ['https://h/mcp?token=t0k&x=1#frag', 'https://h/mcp?token=•••&x=1#frag'],
    ['https://h/mcp?key=', 'https://h/mcp?key='],
    ['not a url', 'not a url'],
  ])('%s → %s', (raw, want) => {
    expect(maskUrl(raw)).toBe(want)
  })
})
