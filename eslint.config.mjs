import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import groundwork from "./eslint-rules/module-cycles.mjs";

const TESTS = ["**/*.test.ts", "**/*.test.tsx", "**/testing/**", "**/__fixtures__/**", "**/*.fixtures.ts"];

/** One restricted-import pattern; `types` lets `import type` through (erased, no runtime edge). */
function layer(group, message, types = false) {
  return { group, message, ...(types ? { allowTypeImports: true } : {}) };
}

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: [
      ".next/**",
      ".build/**",
      ".data/**",
      "node_modules/**",
      "src/server/db/generated/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
      "packages/*/dist/**",
    ],
  },
  // Layer rules (docs/decisions.md, D535): each layer names what it may not import. Tests and
  // fixtures compose across layers on purpose, so they are exempt. Relative paths that climb out
  // of a layer are caught by the `regex` patterns, aliases (`@/…`) by the groups.
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            layer(["@/server/db/*"], "Pages and route handlers reach data through the api caller or a domain function, never the database client.", true),
            layer(["@/cli/*", "@/worker/*"], "The app does not import the CLI or the worker."),
          ],
        },
      ],
    },
  },
  {
    files: ["src/components/**/*.ts", "src/components/**/*.tsx", "src/lib/**/*.ts", "src/lib/**/*.tsx"],
    ignores: TESTS,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            layer(["@/server/*", "@/server/**"], "Client code imports server code for types only (import type); shared values live in src/lib.", true),
            layer(["@/cli/*", "@/worker/*"], "Client code does not import the CLI or the worker."),
          ],
        },
      ],
    },
  },
  {
    files: ["src/server/api/**/*.ts"],
    ignores: TESTS,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            layer(
              ["@/cli/*", "@/worker/*", "@/components/*", "@/components/**"],
              "Procedures call domain modules; they never import the CLI, the worker or components.",
            ),
          ],
        },
      ],
      // A procedure hands ctx.db to a domain function; the query, the tenant check and the audit
      // event live there, once (D535).
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[object.type='MemberExpression'][object.object.name='ctx'][object.property.name='db']",
          message: "No Prisma in a procedure: call a domain function with ctx.db.",
        },
      ],
    },
  },
  {
    files: ["src/server/auth/**/*.ts"],
    ignores: TESTS,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            layer(
              ["@/server/api/*", "@/server/api/**", "@/server/node/*", "@/server/transport/*", "@/cli/*", "@/worker/*", "@/components/*", "@/components/**"],
              "Auth is read by the edge and the api; it imports neither.",
            ),
          ],
        },
      ],
    },
  },
  {
    files: ["src/server/modules/**/*.ts"],
    ignores: TESTS,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            layer(["next", "next/*", "@trpc/*"], "Domain modules stay free of transport: no next/* or @trpc/* imports."),
            layer(
              ["@/server/api/*", "@/server/api/**", "@/server/node/*", "@/server/transport/*", "@/cli/*", "@/worker/*", "@/components/*", "@/components/**"],
              "Domain modules import db, errors, lib and other modules; never the api, node, transport, CLI, worker or components layers.",
            ),
            { regex: "^(\\.\\./){2,}(api|node|transport)/", message: "Domain modules never import the api, node or transport layers (relative path)." },
          ],
        },
      ],
    },
  },
  {
    files: ["src/worker/**/*.ts"],
    ignores: TESTS,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            layer(
              ["@/cli/*", "@/server/api/*", "@/server/api/**", "@/server/node/*", "@/components/*", "@/components/**"],
              "The worker runs domain modules; it never imports the CLI, api, node or components layers.",
            ),
            { regex: "^\\.\\./cli/", message: "The worker never imports the CLI (relative path)." },
          ],
        },
      ],
    },
  },
  // No value cycles among server files (D536). Type-only imports are erased at build time and are
  // not edges; test files are never imported, so they cannot close a cycle.
  {
    files: ["src/server/**/*.ts"],
    ignores: TESTS,
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
  },
  // …nor between domain modules: two modules can lean on each other through different files,
  // which import/no-cycle does not see (D536).
  {
    files: ["src/server/modules/**/*.ts"],
    ignores: TESTS,
    plugins: { groundwork },
    rules: { "groundwork/no-module-cycle": "error" },
  },
  {
    // `use*` test helpers (useTestDatabase) are not React hooks.
    files: ["src/**/*.ts", "scripts/**/*.ts", "e2e/**/*.ts", "bench/**/*.ts", "packages/*/test/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
];

export default config;
