import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { EnvSchema } from "../../apps/server/src/env.ts";

// What CI cannot run (no base image can be pulled: docs/operations.md, "What CI exercises"), read instead:
// the Dockerfile runs the recipe's steps that scripts/ci/container-recipe.sh runs, and compose.yaml wires
// the services as the issue asks.
const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), "utf8");
const dockerfile = read("Dockerfile");
const ciRecipe = read("scripts/ci/container-recipe.sh");
const compose = parse(read("compose.yaml")) as {
  services: Record<
    string,
    {
      image?: string;
      environment?: Record<string, string>;
      healthcheck?: { test: string[] };
      depends_on?: Record<string, { condition: string }>;
    }
  >;
};

/** The `recipe.sh` steps a file runs, in order. */
const recipeSteps = (text: string) =>
  [...text.matchAll(/^\s*(?:RUN |\(cd "\$work\/src" && )scripts\/deploy\/recipe\.sh (\w+)/gm)].map(
    (m) => m[1],
  );

/** The instructions of the Dockerfile's last stage. */
const runStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));

describe("the Dockerfile", () => {
  it("runs the recipe's steps, the same ones the CI recipe runs", () => {
    expect(recipeSteps(dockerfile)).toEqual(["install", "build", "prune"]);
    expect(recipeSteps(ciRecipe)).toEqual(["install", "build", "prune"]);
  });

  it("starts the pruned tree as the CI recipe does, as the node user, checked on /readyz", () => {
    expect(runStage).toMatch(/^CMD \["node", "apps\/server\/dist\/main\.js"\]$/m);
    expect(ciRecipe).toContain("node apps/server/dist/main.js");
    expect(runStage).toMatch(/^USER node$/m);
    expect(runStage).toMatch(/^HEALTHCHECK [^\n]*\\\n[^\n]*\/readyz/m);
    expect(runStage).toMatch(/^COPY --from=build \/app \/app$/m);
  });

  it("is based on the Node major the packages ask for", () => {
    const engines = (JSON.parse(read("package.json")) as { engines: { node: string } }).engines.node;
    const major = /^>=(\d+)\./.exec(engines)![1];
    expect(dockerfile).toMatch(new RegExp(`^ARG NODE_IMAGE=node:${major}-bookworm-slim$`, "m"));
  });
});

describe("compose.yaml", () => {
  const { server, postgres, redis } = compose.services;

  it("runs the server, PostgreSQL and Redis, each with a health check, the server after the other two", () => {
    expect(Object.keys(compose.services).sort()).toEqual(["postgres", "redis", "server"]);
    for (const service of [server, postgres, redis])
      expect(service?.healthcheck?.test.length).toBeGreaterThan(1);
    expect(server!.healthcheck!.test.join(" ")).toContain("/readyz");
    expect(server!.depends_on).toEqual({
      postgres: { condition: "service_healthy" },
      redis: { condition: "service_healthy" },
    });
    expect(postgres!.image).toMatch(/^postgres:16/);
    expect(redis!.image).toMatch(/^redis:7/);
  });

  it("takes the master key from the environment and refuses to start without it: no key in the file", () => {
    const env = server!.environment!;
    expect(env.LICENSING_MASTER_KEY).toMatch(/^\$\{LICENSING_MASTER_KEY:\?[^}]*\}$/);
    expect(read("compose.yaml")).not.toMatch(/[A-Za-z0-9+/]{43}=/);
    expect(env.DATABASE_URL).toMatch(
      /^postgres:\/\/licensing:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/licensing$/,
    );
    expect(env.REDIS_URL).toBe("redis://redis:6379");
  });

  it("sets only variables the server reads", () => {
    const known = Object.keys(EnvSchema.shape);
    expect(Object.keys(server!.environment!).filter((name) => !known.includes(name))).toEqual([]);
  });
});
