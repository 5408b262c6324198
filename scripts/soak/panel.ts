import { TestClient } from "@licensing/api/testing";
import type { Answer } from "./http.ts";
import type { Ledger, LicenseRef } from "./machines.ts";
import type { Recorder } from "./record.ts";

export interface PanelOptions {
  users: number;
  /** Pause between two actions of one user (ms). */
  thinkMs: number;
  /** A signed-in session, shared by the users (sessions live in the database, so any instance takes it). */
  cookie: string;
  target: () => string;
  issue: { companyId: string; templateId: string };
  /** Licenses to search for (by key prefix). */
  known: LicenseRef[];
  recorder: Recorder;
  ledger: Ledger;
}

/** Operators in the panel: each searches licenses (by key prefix, by company name) and issues one, in turn. */
export function startPanelUsers(options: PanelOptions) {
  let running = true;
  const call = async (
    op: string,
    run: (client: TestClient) => Promise<{ status: number; json: unknown }>,
  ) => {
    const client = new TestClient(options.target());
    client.cookie = options.cookie;
    const started = performance.now();
    let answer: Answer;
    try {
      const res = await run(client);
      const body = (res.json ?? null) as Record<string, unknown> | null;
      answer = {
        status: res.status,
        code: res.status >= 400 && typeof body?.code === "string" ? body.code : null,
        body,
        ms: performance.now() - started,
      };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      answer = {
        status: 0,
        code: cause?.code ?? "fetch failed",
        body: null,
        ms: performance.now() - started,
      };
    }
    options.recorder.add(op, answer);
    return answer;
  };

  const user = async () => {
    let turn = 0;
    while (running) {
      turn++;
      if (turn % 3 === 0) {
        const issued = await call("panel.issue", (client) =>
          client.api.licenses.issue({ body: options.issue }),
        );
        if (issued.status === 201) options.ledger.licenses.add(String(issued.body!.id));
      } else {
        const known = options.known[Math.floor(Math.random() * options.known.length)]!;
        const search = turn % 3 === 1 ? known.key.slice(0, 9) : "Soak";
        await call("panel.search", (client) =>
          client.api.licenses.search({ query: { search, pageSize: 25 } }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, options.thinkMs * (0.5 + Math.random())));
    }
  };
  const users = Array.from({ length: options.users }, user);
  return {
    async stop() {
      running = false;
      await Promise.all(users);
    },
  };
}
