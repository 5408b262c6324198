/**
 * `npm run dev`: the server with reload on :3000 and the admin app's Vite dev server on :5173, which
 * proxies /api, /trpc and /healthz to it. Ctrl-C stops both.
 */
import { spawn, type ChildProcess } from "node:child_process";

const children: ChildProcess[] = [
  spawn("npx", ["tsx", "watch", "apps/server/src/main.ts"], { stdio: "inherit" }),
  spawn("npx", ["vite"], { cwd: "apps/admin", stdio: "inherit" }),
];
const stop = () => children.forEach((child) => child.kill("SIGTERM"));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", (code) => (process.exitCode ||= code ?? 0) && stop());
