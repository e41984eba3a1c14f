import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: [".next/**", ".build/**", ".data/**", "node_modules/**", "src/server/db/generated/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "packages/*/dist/**"],
  },
  {
    files: ["src/server/modules/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["next", "next/*", "@trpc/*"], message: "Domain modules stay free of transport: no next/* or @trpc/* imports." }] },
      ],
    },
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
