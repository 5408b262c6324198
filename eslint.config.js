import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Package boundaries (docs/decisions/0002): protocol <- contracts <- db <- core <- api <- apps/server;
// client -> protocol, contracts (types only), and its core entry uses no Node built-ins (decision 0020);
// config-types (the config schema's TypeScript, decision 0043) stands alone, for core and codegen.
// The applications compose the packages, and no package imports an application.
const APPS = ["@licensing/server", "@licensing/simulator", "@licensing/desktop-sample", "@licensing/admin"];
const boundaries = {
  "packages/protocol": [
    "@licensing/contracts",
    "@licensing/db",
    "@licensing/core",
    "@licensing/api",
    "@licensing/client",
    ...APPS,
  ],
  "packages/contracts": ["@licensing/db", "@licensing/core", "@licensing/api", "@licensing/client", ...APPS],
  "packages/db": ["@licensing/core", "@licensing/api", "@licensing/client", ...APPS],
  "packages/core": ["@licensing/api", "@licensing/client", ...APPS],
  "packages/api": ["@licensing/db", "@licensing/client", ...APPS],
  "packages/client": [
    "@licensing/db",
    "@licensing/core",
    "@licensing/api",
    "@licensing/config-types",
    "@licensing/codegen",
    ...APPS,
  ],
  "packages/config-types": [
    "@licensing/protocol",
    "@licensing/contracts",
    "@licensing/db",
    "@licensing/core",
    "@licensing/api",
    "@licensing/client",
    "@licensing/codegen",
    ...APPS,
  ],
  // The simulator drives the SDK through its API and starts the server in-process (decision 0022): the
  // protocol's formats and the HTTP layer are not its business.
  "apps/simulator": [
    "@licensing/protocol",
    "@licensing/api",
    "@licensing/desktop-sample",
    "@licensing/admin",
  ],
  // The desktop sample is what a customer's product is: it has the SDK, and nothing of the service.
  "apps/desktop-sample": [
    "@licensing/protocol",
    "@licensing/contracts",
    "@licensing/db",
    "@licensing/core",
    "@licensing/api",
    "@licensing/server",
    "@licensing/simulator",
    "@licensing/admin",
  ],
};
const boundary = (name) => ({ group: [name, `${name}/*`], message: "Breaks the package boundary." });
const noNodeBuiltins = (message) => ({ group: ["node:*"], message });
const testsAndHelpers = ["**/*.test.ts", "**/testing/**"];

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/dist-types/**",
      "apps/desktop-sample/release/**",
      "**/.data/**",
      "**/.turbo/**",
      "walkthrough/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  ...Object.entries(boundaries).map(([dir, forbidden]) => ({
    files: [`${dir}/src/**/*.{ts,tsx}`],
    ignores: testsAndHelpers,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...forbidden.map(boundary),
            ...(dir === "packages/protocol"
              ? [noNodeBuiltins("The protocol runs in browsers too: no Node built-ins.")]
              : []),
          ],
        },
      ],
    },
  })),
  {
    // The SDK publishes alone: it bundles the protocol, and takes only types from the contracts.
    files: ["packages/client/src/**/*.ts"],
    ignores: testsAndHelpers,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              ...boundary("@licensing/contracts"),
              allowTypeImports: true,
              message: "The SDK takes only types from the contracts.",
            },
          ],
        },
      ],
    },
  },
  {
    // `@licensing/client/core` bundles for browsers and Electron renderers: only src/node and the Node entry may use Node.
    files: ["packages/client/src/**/*.ts"],
    ignores: [...testsAndHelpers, "packages/client/src/node/**", "packages/client/src/index.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...boundaries["packages/client"].map(boundary),
            noNodeBuiltins("The SDK's core entry runs in browsers too: Node built-ins belong in src/node."),
          ],
        },
      ],
    },
  },
  {
    // The desktop sample's renderer runs in Chromium (decision 0034): the SDK's browser entry, no Node.
    files: ["apps/desktop-sample/src/{renderer,shared}/**/*.{ts,tsx}"],
    ignores: testsAndHelpers,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...boundaries["apps/desktop-sample"].map(boundary),
            {
              regex: "^@licensing/client(?!/core$)(/.*)?$",
              message: "The renderer takes @licensing/client/core, the SDK without Node built-ins.",
            },
            noNodeBuiltins("The renderer runs in Chromium: no Node built-ins."),
          ],
        },
      ],
    },
  },
  {
    // The admin app (decision 0030) runs in the browser: from the server side it takes the contracts and
    // only the AppRouter *type*, so no server code can reach the bundle. Its tests run in Node and may
    // start the real server (`@licensing/api/testing`).
    files: ["apps/admin/src/**/*.{ts,tsx}"],
    ignores: testsAndHelpers,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              ...boundary("@licensing/api"),
              allowTypeImports: true,
              message: "The admin app takes only the AppRouter type from the API.",
            },
            ...[
              "@licensing/db",
              "@licensing/core",
              "@licensing/server",
              "@licensing/protocol",
              "@licensing/client",
              "@licensing/simulator",
            ].map((name) => ({
              ...boundary(name),
              message:
                "The admin app talks to the server over tRPC: it imports only contracts and the AppRouter type.",
            })),
            noNodeBuiltins("The admin app runs in the browser: no Node built-ins."),
          ],
        },
      ],
    },
  },
);
