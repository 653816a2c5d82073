// @vitest-environment node
/// <reference types="node" />
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('..', import.meta.url));

// Every stylesheet under src by its path there, read afresh (a new file is covered without a list).
const sheets: Record<string, string> = Object.fromEntries(
  readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.css'))
    .map((name) => [relative(SRC, join(SRC, name)), readFileSync(join(SRC, name), 'utf8')]),
);

/**
 * The classes a stylesheet defines: those of every selector that stands on its own
 * (`.button`, `.button:disabled`, `.tab.tab--active`). A class styled only inside an ancestor
 * of the file's own (`.mine-page .button`) is scoped by that ancestor and not counted.
 */
function definedClasses(css: string): Set<string> {
  const out = new Set<string>();
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const match of text.matchAll(/([^{};]+)\{/g)) {
    const selectors = (match[1] ?? '').trim();
    if (!selectors || selectors.startsWith('@')) continue;
    for (const selector of selectors.split(',')) {
      // Classes inside :not(...), :is(...) and friends only narrow the rule; drop them.
      const plain = selector.replace(/:[\w-]+\([^)]*\)/g, '').trim();
      if (/[\s>+~]/.test(plain)) continue;
      for (const cls of plain.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) out.add(cls[1] ?? '');
    }
  }
  return out;
}

describe('stylesheets', () => {
  it('reads the kit, the app shell and the features', () => {
    const names = Object.keys(sheets);
    expect(names.some((n) => n.startsWith('components/'))).toBe(true);
    expect(names.some((n) => n.startsWith('features/'))).toBe(true);
    expect(names).toContain('app/tokens.css');
  });

  it('finds the classes a rule defines, not those it narrows by or styles in context', () => {
    const found = definedClasses('/* .x {} */ .a, .b:hover > .c:not(.d) { color: red }\n@media (x) { .e.f--g:focus { top: 0 } .h .i { top: 0 } }');
    expect([...found].sort()).toEqual(['a', 'e', 'f--g']);
  });

  it('defines every global class in one file only (CSS Modules are scoped and not counted)', () => {
    const owners = new Map<string, string[]>();
    for (const [file, css] of Object.entries(sheets)) {
      if (file.endsWith('.module.css')) continue;
      for (const cls of definedClasses(css)) owners.set(cls, [...(owners.get(cls) ?? []), file]);
    }
    const twice = [...owners].filter(([, files]) => files.length > 1).map(([cls, files]) => `.${cls}: ${files.join(', ')}`);
    expect(twice).toEqual([]);
  });

  it('writes colours only in the tokens file', () => {
    const colour = /#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?)\(/;
    const offenders = Object.entries(sheets)
      .filter(([file]) => file !== 'app/tokens.css')
      .flatMap(([file, css]) =>
        css
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .split('\n')
          .filter((line) => colour.test(line))
          .map((line) => `${file}: ${line.trim()}`),
      );
    expect(offenders).toEqual([]);
  });

  it('uses only variables the tokens file defines', () => {
    const defined = new Set([...(sheets['app/tokens.css'] ?? '').matchAll(/(--[\w-]+)\s*:/g)].map((m) => m[1]));
    const unknown = Object.entries(sheets).flatMap(([file, css]) =>
      [...css.matchAll(/var\((--[\w-]+)/g)].map((m) => m[1] ?? '').filter((name) => !defined.has(name)).map((name) => `${file}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('declares exactly the classes of each CSS Module in its .module.d.css.ts', () => {
    const modules = Object.keys(sheets).filter((file) => file.endsWith('.module.css'));
    expect(modules.length).toBeGreaterThan(0);
    for (const file of modules) {
      const css = (sheets[file] ?? '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/:global\([^)]*\)/g, '');
      const classes = new Set([...css.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]));
      const declared = readFileSync(join(SRC, file.replace(/\.module\.css$/, '.module.d.css.ts')), 'utf8');
      const keys = new Set([...declared.matchAll(/readonly '([^']+)': string;/g)].map((m) => m[1]));
      expect([...keys].sort(), file).toEqual([...classes].sort());
    }
  });
});
