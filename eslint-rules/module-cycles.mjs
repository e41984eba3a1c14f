// groundwork/no-module-cycle (D536): no value-import cycle between the domain modules
// (src/server/modules/<module>/). import/no-cycle sees cycles between files; two modules can
// depend on each other through different files (data-sources ⇄ alerts was one) and it never
// notices. This rule reads every module file's value imports once per lint run (type-only
// imports are erased at build time, and tests, fixtures and `testing/` helpers compose modules
// on purpose, so neither is an edge) and reports an import whose target module leads back.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const MODULES = path.join("src", "server", "modules");
const EXEMPT = /(\.test\.tsx?|\.fixtures\.ts)$|[\\/](testing|__fixtures__)[\\/]/;

/** The module a path under src/server/modules belongs to, or null. */
function moduleOf(root, file) {
  const relative = path.relative(path.join(root, MODULES), file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return null;
  const [first, ...rest] = relative.split(path.sep);
  return rest.length > 0 ? first : null;
}

/** The file an import specifier names (no extension resolution needed: only the folder counts). */
function targetOf(root, fromFile, specifier) {
  if (specifier.startsWith("@/")) return path.join(root, "src", specifier.slice(2));
  if (specifier.startsWith(".")) return path.resolve(path.dirname(fromFile), specifier);
  return null;
}

/** Specifiers of the value imports and re-exports of one source text. */
export function valueImports(text, fileName = "file.ts") {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specifiers = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const onlyTypes =
        clause && !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push(statement.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      const clause = statement.exportClause;
      const onlyTypes = clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}

function walk(dir, files) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, files);
    else if (/\.tsx?$/.test(entry.name) && !EXEMPT.test(full)) files.push(full);
  }
}

/** file → { mtimeMs, specifiers }: a file is parsed again only when it changed. */
const parsed = new Map();
let cached = null;

/**
 * module → the modules it imports by value (each edge with one file that makes it). Every call
 * lists and stats the module files (a few ms) so an edit between two lint calls of one process
 * (an editor, the rules' own test) is seen.
 */
function moduleGraph(root) {
  const files = [];
  walk(path.join(root, MODULES), files);
  let changed = cached === null || cached.root !== root || cached.count !== files.length;
  for (const file of files) {
    const mtimeMs = statSync(file).mtimeMs;
    if (parsed.get(file)?.mtimeMs === mtimeMs) continue;
    parsed.set(file, { mtimeMs, specifiers: valueImports(readFileSync(file, "utf8"), file) });
    changed = true;
  }
  if (!changed) return cached.graph;
  const graph = new Map();
  for (const file of files) {
    const from = moduleOf(root, file);
    if (from === null) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const specifier of parsed.get(file).specifiers) {
      const target = targetOf(root, file, specifier);
      const to = target && moduleOf(root, target);
      if (to && to !== from && !graph.get(from).has(to)) graph.get(from).set(to, path.relative(root, file));
    }
  }
  cached = { root, graph, count: files.length };
  return graph;
}

/** A path of modules from `start` to `goal` over value edges, or null. */
function pathBetween(graph, start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    if (current === goal) {
      const steps = [];
      for (let step = goal; step !== null; step = previous.get(step)) steps.unshift(step);
      return steps;
    }
    for (const next of graph.get(current)?.keys() ?? []) {
      if (!previous.has(next)) {
        previous.set(next, current);
        queue.push(next);
      }
    }
  }
  return null;
}

const noModuleCycle = {
  meta: {
    type: "problem",
    docs: { description: "No value-import cycle between domain modules (src/server/modules/<module>/)." },
    schema: [],
    messages: {
      cycle: "Module cycle: {{chain}} (through {{via}}). Break it with a port or move the shared piece to a neutral module (docs/decisions.md, D536).",
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const from = moduleOf(root, file);
    if (from === null || EXEMPT.test(file)) return {};
    const check = (node, specifier, typeOnly) => {
      if (typeOnly) return;
      const target = targetOf(root, file, specifier);
      const to = target && moduleOf(root, target);
      if (!to || to === from) return;
      const back = pathBetween(moduleGraph(root), to, from);
      if (!back) return;
      const graph = moduleGraph(root);
      const via = back
        .slice(0, -1)
        .map((step, index) => graph.get(step).get(back[index + 1]))
        .join(", ");
      context.report({ node, messageId: "cycle", data: { chain: [from, ...back].join(" → "), via } });
    };
    return {
      ImportDeclaration(node) {
        const typeOnly =
          node.importKind === "type" || (node.specifiers.length > 0 && node.specifiers.every((s) => s.type === "ImportSpecifier" && s.importKind === "type"));
        check(node, node.source.value, typeOnly);
      },
      ExportNamedDeclaration(node) {
        if (!node.source) return;
        const typeOnly = node.exportKind === "type" || (node.specifiers.length > 0 && node.specifiers.every((s) => s.exportKind === "type"));
        check(node, node.source.value, typeOnly);
      },
      ExportAllDeclaration(node) {
        check(node, node.source.value, node.exportKind === "type");
      },
    };
  },
};

const plugin = { meta: { name: "groundwork" }, rules: { "no-module-cycle": noModuleCycle } };

export default plugin;
