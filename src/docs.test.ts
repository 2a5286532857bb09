import { readFileSync } from 'node:fs';
import { parseAbi, type Abi } from 'viem';
import { describe, expect, it } from 'vitest';
import { ESCROW_ABI } from './main/contracts/escrow-artifact.js';
import { DOCS_DIR } from './main/test-support/doc-vectors.js';

/**
 * What docs/ states that code can check: the values docs/test-vectors.md quotes are those of the
 * vector files the tests hold the code to, and protocol.md's escrow interface is the compiled ABI.
 */
const doc = (name: string) => readFileSync(`${DOCS_DIR}${name}`, 'utf8');

describe('docs/test-vectors.md', () => {
  const page = doc('test-vectors.md');
  const files = ['seal-vectors.json', 'safety-number.json', 'release-signature.json'].map((f) => doc(`vectors/${f}`));
  const haystack = files.join('\n').toLowerCase();

  it('quotes only values that are in docs/vectors/ (so the page cannot drift from the tested files)', () => {
    const code = [...page.matchAll(/```[a-z]*\n([\s\S]*?)```|`([^`\n]+)`/g)].map((m) => m[1] ?? m[2]).join('\n');
    const tokens = (text: string) => text.split(/[^A-Za-z0-9+/=]+/).filter((t) => t.length > 0);
    // hex, long integers, and base64 (canonical base64 is a multiple of 4 long, which paths seldom are)
    const value = (t: string) =>
      /^(0x)?[0-9a-fA-F]{16,}$/.test(t) ||
      /^\d{9,}$/.test(t) ||
      (/^[A-Za-z0-9+/]{16,}={0,2}$/.test(t) && t.length % 4 === 0);
    const quoted = new Set([...tokens(code).filter(value), ...tokens(page).filter((t) => value(t) && /\d/.test(t))]);
    expect(quoted.size).toBeGreaterThan(40);
    const missing = [...quoted].filter((t) => !haystack.includes(t.replace(/^0x/, '').toLowerCase()));
    expect(missing).toEqual([]);
  });

  it('links each vector file and the tests that read them', () => {
    for (const f of ['seal-vectors.json', 'safety-number.json', 'release-signature.json'])
      expect(page).toContain(`(vectors/${f})`);
    for (const f of files) expect(JSON.parse(f).description).toContain('docs/test-vectors.md');
  });
});

/** An ABI item reduced to what an interface states: kind, name, typed and named parameters, mutability. */
function signature(item: Abi[number]): string {
  const params = (list: readonly { type: string; name?: string; indexed?: boolean }[] | undefined) =>
    (list ?? []).map((p) => `${p.type}${p.indexed ? ' indexed' : ''}${p.name ? ` ${p.name}` : ''}`).join(', ');
  const name = 'name' in item ? item.name : '';
  const outputs = 'outputs' in item ? params(item.outputs) : '';
  const mutability = 'stateMutability' in item ? item.stateMutability : '';
  return `${item.type} ${name}(${'inputs' in item ? params(item.inputs) : ''}) ${mutability} -> (${outputs})`;
}

describe('docs/protocol.md §13, the escrow', () => {
  it('lists the whole compiled interface, every function, event and error with its parameter types, and nothing else', () => {
    const block = [...doc('protocol.md').matchAll(/```text\n([\s\S]*?)```/g)]
      .map((m) => m[1])
      .find((b) => b.includes('function deposit('));
    expect(block, 'the escrow interface block').toBeDefined();
    const documented = parseAbi(block!.split('\n').filter((l) => l.trim() !== '') as string[]);
    expect(documented.map(signature).sort()).toEqual((ESCROW_ABI as Abi).map(signature).sort());
  });
});
