import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Package boundaries (docs/decisions/0002): protocol <- contracts <- db <- core <- api <- apps/server;
// client -> protocol, contracts.
const boundaries = {
  "packages/protocol": [
    "@licensing/contracts",
    "@licensing/db",
    "@licensing/core",
    "@licensing/api",
    "@licensing/server",
  ],
  "packages/contracts": ["@licensing/db", "@licensing/core", "@licensing/api", "@licensing/server"],
  "packages/db": ["@licensing/core", "@licensing/api", "@licensing/server"],
  "packages/core": ["@licensing/api", "@licensing/server"],
  "packages/api": ["@licensing/db", "@licensing/server"],
};

export default tseslint.config(
  { ignores: ["**/node_modules/**", "**/dist/**", "**/.data/**", "**/.turbo/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  ...Object.entries(boundaries).map(([dir, forbidden]) => ({
    files: [`${dir}/src/**/*.ts`],
    ignores: ["**/*.test.ts", "**/testing/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...forbidden.map((name) => ({
              group: [name, `${name}/*`],
              message: "Breaks the package boundary.",
            })),
            ...(dir === "packages/protocol"
              ? [{ group: ["node:*"], message: "The protocol runs in browsers too: no Node built-ins." }]
              : []),
          ],
        },
      ],
    },
  })),
);
