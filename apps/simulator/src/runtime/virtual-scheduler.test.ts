import { describe, expect, it } from "vitest";
import { SimulatedNetwork } from "./network.ts";
import { VirtualScheduler } from "./virtual-scheduler.ts";

describe("VirtualScheduler", () => {
  it("fires network timers in due order as time reaches them, and waits for their work", async () => {
    let now = 0;
    const scheduler = new VirtualScheduler(() => now);
    const fired: string[] = [];
    scheduler.setTimeout(() => void fired.push("b@20"), 20, "network");
    scheduler.setTimeout(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      fired.push("a@10 done");
      // Work that re-arms: the new timer counts from the time it is set (11 + 5).
      scheduler.setTimeout(() => void fired.push("c@15"), 5, "network");
    }, 10.4);
    const cancelled = scheduler.setTimeout(() => void fired.push("never"), 1, "network");
    scheduler.clearTimeout(cancelled);
    expect(scheduler.nextNetworkDue()).toBe(11); // whole milliseconds, never early

    now = 11;
    await scheduler.fireDue();
    expect(fired).toEqual(["a@10 done"]);
    expect(scheduler.nextNetworkDue()).toBe(16);
    now = 30;
    await scheduler.fireDue();
    expect(fired).toEqual(["a@10 done", "c@15", "b@20"]);
    expect(scheduler.nextNetworkDue()).toBeNull();
  });

  it("fires a due watch timer once per stop, however many minutes passed", async () => {
    let now = 0;
    const scheduler = new VirtualScheduler(() => now);
    let reads = 0;
    const watch = () => {
      reads++;
      scheduler.setTimeout(watch, 60_000, "watch");
    };
    scheduler.setTimeout(watch, 60_000, "watch");
    expect(scheduler.nextNetworkDue()).toBeNull(); // a watch never makes time stop
    now = 30 * 86_400_000;
    await scheduler.fireDue();
    expect(reads).toBe(1);
    await scheduler.fireDue();
    expect(reads).toBe(1);
  });

  it("a sleeping computer's timers stop, and when it wakes each is due as late as it slept; a crash forgets them", async () => {
    let now = 0;
    const scheduler = new VirtualScheduler(() => now);
    const laptop = {};
    const desktop = {};
    const fired: string[] = [];
    scheduler.forOwner(laptop).setTimeout(() => void fired.push("laptop@100"), 100, "network");
    scheduler.forOwner(laptop).setTimeout(() => void fired.push("laptop watch"), 60, "watch");
    scheduler.forOwner(desktop).setTimeout(() => void fired.push("desktop@150"), 150, "network");

    now = 50;
    scheduler.sleep(laptop);
    expect(scheduler.isAsleep(laptop)).toBe(true);
    expect(scheduler.nextNetworkDue()).toBe(150); // the sleeping laptop's timer does not stop time
    now = 1000;
    await scheduler.fireDue();
    expect(fired).toEqual(["desktop@150"]);

    expect(scheduler.wake(laptop)).toBe(950);
    expect(scheduler.isAsleep(laptop)).toBe(false);
    expect(scheduler.nextNetworkDue()).toBe(1050); // 50 ms left when it fell asleep
    await scheduler.fireDue();
    expect(fired).toEqual(["desktop@150"]);
    now = 1050;
    await scheduler.fireDue();
    expect(fired).toEqual(["desktop@150", "laptop@100", "laptop watch"]);

    scheduler.forOwner(laptop).setTimeout(() => void fired.push("never"), 10, "network");
    scheduler.drop(laptop);
    expect(scheduler.nextNetworkDue()).toBeNull();
    expect(scheduler.wake(laptop)).toBe(0); // not asleep
  });
});

describe("SimulatedNetwork", () => {
  const reached: string[] = [];
  const realFetch = (async (input: string | URL | Request) => {
    reached.push(String(input));
    return new Response("{}", { status: String(input).endsWith("/404") ? 404 : 200 });
  }) as typeof fetch;

  it("passes requests through online, fails them offline, and injects error statuses", async () => {
    const network = new SimulatedNetwork(realFetch);
    expect((await network.fetch("http://s/ok")).status).toBe(200);
    expect((await network.fetch("http://s/404")).status).toBe(404);

    network.mode = { kind: "offline" };
    await expect(network.fetch("http://s/ok")).rejects.toThrow(TypeError);

    network.mode = { kind: "server-errors", status: 503, retryAfterMs: 90_500 };
    const injected = await network.fetch("http://s/ok");
    expect(injected.status).toBe(503);
    expect(injected.headers.get("retry-after")).toBe("91");
    expect(await injected.json()).toEqual({
      code: "server.unavailable",
      message: "Injected by licensing-sim: server-errors 503",
      status: 503,
    });

    expect(reached).toEqual(["http://s/ok", "http://s/404"]);
    expect(network.takeCounts()).toEqual({ ok: 1, refused: 1, failed: 2 });
    expect(network.takeCounts()).toEqual({ ok: 0, refused: 0, failed: 0 });
  });
});
