import { EnvError, parseEnv, shutdownDrainSeconds } from "./env.ts";
import { startServer } from "./server.ts";

let env;
try {
  env = parseEnv(process.env);
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  console.error(error.message);
  process.exit(1);
}

let server;
try {
  server = await startServer(env);
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  console.error(error.message);
  process.exit(1);
}
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    const drainSeconds = shutdownDrainSeconds(env);
    server.deps.logger.info(
      { signal, drainSeconds },
      drainSeconds > 0
        ? "shutting down: /readyz answers 503 for the drain period, then in-flight requests finish"
        : "shutting down: finishing in-flight requests",
    );
    server.close({ drainMs: drainSeconds * 1000 }).then(
      () => process.exit(0),
      (err: unknown) => {
        server.deps.logger.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  });
}
