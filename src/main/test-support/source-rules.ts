/**
 * Rules of the house that src/architecture.test.ts holds the tree to, as pure functions of file
 * texts, paths or import edges, so that the test can also show each one failing on a made-up
 * violation.
 */
import ts from 'typescript';

export interface Source {
  path: string;
  text: string;
}

const TEST_CALLS = new Set(['it', 'test', 'describe', 'suite', 'bench']);

/** The identifier a call chain starts from: `it` for `it.skipIf(x)(…)` and `test.describe(…)`. */
function rootOf(e: ts.Expression): string | null {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e) || ts.isCallExpression(e)) return rootOf(e.expression);
  return null;
}

function titleOf(arg: ts.Expression | undefined): string | null {
  if (!arg) return null;
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return arg.text;
  if (ts.isTemplateExpression(arg))
    return [arg.head.text, ...arg.templateSpans.map((s) => s.literal.text)].join('${…}');
  return null;
}

/**
 * Every comment of a file and every test title in it (the first argument of `it`, `test`,
 * `describe` and their variants), with its line. Comments are the trivia between tokens, found
 * from every node's and node list's edges, so text inside string literals is never one.
 */
export function commentsAndTitles({ path, text }: Source): Array<{ line: number; text: string }> {
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (pos: number) => file.getLineAndCharacterOfPosition(pos).line + 1;
  const out: Array<{ pos: number; line: number; text: string }> = [];
  const seen = new Set<number>();
  // the trivia at `pos`: comments on its line are "trailing", those after a line break "leading"
  const commentsAt = (pos: number) => {
    for (const r of [
      ...(ts.getTrailingCommentRanges(text, pos) ?? []),
      ...(ts.getLeadingCommentRanges(text, pos) ?? []),
    ]) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ pos: r.pos, line: lineOf(r.pos), text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (n: ts.Node): void => {
    commentsAt(n.pos);
    commentsAt(n.end);
    // `{/* … */}` in JSX: a comment between two tokens of one node
    if (ts.isJsxExpression(n) && !n.expression) commentsAt(n.getStart(file) + 1);
    if (ts.isCallExpression(n) && TEST_CALLS.has(rootOf(n.expression) ?? '')) {
      const title = titleOf(n.arguments[0]);
      if (title !== null) {
        const at = n.arguments[0].getStart(file);
        out.push({ pos: at, line: lineOf(at), text: title });
      }
    }
    ts.forEachChild(n, visit, (nodes) => {
      commentsAt(nodes.pos);
      commentsAt(nodes.end);
      nodes.forEach(visit);
    });
  };
  visit(file);
  return out.sort((a, b) => a.pos - b.pos).map(({ line, text }) => ({ line, text }));
}

/** The outermost object literals an expression evaluates to (through parentheses and `a ? b : c`). */
function literalsOf(e: ts.Expression): ts.ObjectLiteralExpression[] {
  if (ts.isParenthesizedExpression(e)) return literalsOf(e.expression);
  if (ts.isConditionalExpression(e)) return [...literalsOf(e.whenTrue), ...literalsOf(e.whenFalse)];
  return ts.isObjectLiteralExpression(e) ? [e] : [];
}

/** The state keys one `set(...)` writes: its object, or what its updater returns. */
function keysSet(arg: ts.Expression | undefined): string[] {
  if (!arg) return [];
  const objects: ts.ObjectLiteralExpression[] = [];
  if (ts.isArrowFunction(arg) || ts.isFunctionExpression(arg)) {
    if (!ts.isBlock(arg.body)) objects.push(...literalsOf(arg.body));
    else {
      const returns = (n: ts.Node): void => {
        if (ts.isReturnStatement(n) && n.expression) objects.push(...literalsOf(n.expression));
        else if (!ts.isFunctionLike(n)) ts.forEachChild(n, returns);
      };
      ts.forEachChild(arg.body, returns);
    }
  } else objects.push(...literalsOf(arg));
  return objects.flatMap((o) =>
    o.properties.flatMap((p) =>
      p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : [],
    ),
  );
}

/**
 * Store slices whose `set(...)` writes a key their own `…Slice` interface does not declare: a
 * slice changes another's state only through that slice's actions.
 */
export function foreignSliceWrites(sources: ReadonlyArray<{ path: string; text: string }>): string[] {
  const out: string[] = [];
  for (const { path, text } of sources) {
    const own = new Set<string>();
    const sets: ts.CallExpression[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isInterfaceDeclaration(n) && n.name.text.endsWith('Slice')) {
        for (const m of n.members) if (m.name && ts.isIdentifier(m.name)) own.add(m.name.text);
      }
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'set') sets.push(n);
      ts.forEachChild(n, visit);
    };
    visit(ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true));
    for (const call of sets) {
      for (const key of keysSet(call.arguments[0])) {
        if (!own.has(key))
          out.push(
            `${path}: set(...) writes \`${key}\`, which its slice does not declare; call the owning slice's action`,
          );
      }
    }
  }
  return out;
}

/** What a comment must not keep: the history of the code instead of its reasons. */
const HISTORY: ReadonlyArray<[RegExp, string]> = [
  [/\b(issue|finding)s? #?\d+/i, 'cites an issue or a finding'],
  [/\bround \d+\b/i, 'cites a round'],
  [/\bthis stop\b/i, 'cites a stop'],
  [/\bsee the commit\b/i, 'sends the reader to a commit'],
  [/\b\d+(\.\d+)? ?(ms|µs|s) against \d/, 'keeps a figure of a past run (figures belong in docs/benchmarks.md)'],
  [/~\d+(\.\d+)? ?[x×](?!\w)/, 'keeps a figure of a past run (figures belong in docs/benchmarks.md)'],
];

/** Comments and test titles that cite an issue, a finding, a round or a stop, or keep a past figure. */
export function historyInComments(sources: readonly Source[]): string[] {
  // only a file whose text matches at all is parsed, to see whether the match is in a comment
  const suspects = sources.filter(({ text }) => HISTORY.some(([pattern]) => pattern.test(text)));
  return suspects.flatMap((source) =>
    commentsAndTitles(source).flatMap(({ line, text }) =>
      HISTORY.filter(([pattern]) => pattern.test(text)).map(
        ([pattern, why]) => `${source.path}:${line}: "${pattern.exec(text)![0]}" ${why}; say why the code is so`,
      ),
    ),
  );
}

/**
 * Import cycles among `edges` (from → to, repository paths), each printed once as the path
 * around it: the strongly connected components of the graph (Tarjan), and in each a shortest
 * cycle through its first file.
 */
export function importCycles(edges: ReadonlyArray<{ from: string; to: string }>): string[] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  for (const targets of next.values()) targets.sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || next.get(v)!.includes(v)) components.push(component.sort());
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) connect(v);
  return components.map((component) => {
    const inside = new Set(component);
    const start = component[0];
    // breadth first from the start back to it, inside the component
    const cameFrom = new Map<string, string>();
    const queue = [start];
    while (queue.length > 0) {
      const v = queue.shift()!;
      const found = next.get(v)!.find((w) => w === start);
      if (found) {
        const path = [start];
        for (let at = v; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start].join(' → ');
      }
      for (const w of next.get(v)!)
        if (inside.has(w) && !cameFrom.has(w)) {
          cameFrom.set(w, v);
          queue.push(w);
        }
    }
    return component.join(' → ');
  });
}

/** Folders with more than `max` source files directly in them, tests included. */
export function crowdedFolders(paths: readonly string[], max = 12): string[] {
  const counts = new Map<string, number>();
  for (const p of paths) {
    if (!/\.(ts|tsx|mts)$/.test(p) || p.endsWith('.d.ts')) continue;
    const folder = p.slice(0, p.lastIndexOf('/'));
    counts.set(folder, (counts.get(folder) ?? 0) + 1);
  }
  return [...counts]
    .filter(([, n]) => n > max)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([folder, n]) => `${folder}: ${n} source files (at most ${max}; split it into folders by feature)`);
}

/** Test code: test folders and files, the shared test tooling and the catalogue checks. */
export const isTestCode = (path: string): boolean =>
  /(^|\/)test\/|\.test\.tsx?$|^src\/main\/test-support\/|^src\/i18n-test\//.test(path);

/** `as never` and `as unknown as` in product code: casts that silence the type checker instead of satisfying it. */
export function unsafeCasts(sources: readonly Source[]): string[] {
  const out: string[] = [];
  for (const { path, text } of sources) {
    if (isTestCode(path) || !/\bas\s+(never|unknown)\b|<never>/.test(text)) continue;
    const kind = path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    const visit = (n: ts.Node): void => {
      if (ts.isAsExpression(n) || ts.isTypeAssertionExpression(n)) {
        let inner = n.expression;
        while (ts.isParenthesizedExpression(inner)) inner = inner.expression;
        const cast =
          n.type.kind === ts.SyntaxKind.NeverKeyword
            ? 'as never'
            : ts.isAsExpression(inner) && inner.type.kind === ts.SyntaxKind.UnknownKeyword
              ? 'as unknown as'
              : null;
        if (cast) out.push(`${path}:${file.getLineAndCharacterOfPosition(n.getStart(file)).line + 1}: ${cast}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(file);
  }
  return out;
}
