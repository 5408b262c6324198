/**
 * Compares V8 heap snapshots (`.heapsnapshot`, e.g. from an instance started with
 * `--node-options='--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=…'` and `kill -USR2`) by constructor: the
 * count and self size of each (type, name) in every snapshot, and what grew from the first to the last.
 *
 *   npx tsx scripts/soak/heap-compare.ts first.heapsnapshot [more…] last.heapsnapshot [--top 25]
 *
 * A snapshot is taken after a full collection, so its total is what the process holds, garbage excluded.
 * Reading one takes a few times its size in memory: run it with NODE_OPTIONS=--max-old-space-size=4096 for
 * large heaps.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface Group {
  count: number;
  size: number;
}
interface Summary {
  file: string;
  total: number;
  count: number;
  groups: Map<string, Group>;
}

function summarise(file: string): Summary {
  const snapshot = JSON.parse(readFileSync(file, "utf8")) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ];
  const groups = new Map<string, Group>();
  let total = 0;
  let count = 0;
  const { nodes, strings } = snapshot;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + typeAt]!]!;
    // Strings, code and numbers are named by their content: one group each.
    const name =
      /string$/.test(type) || type === "code" || type === "number" ? "" : strings[nodes[i + nameAt]!]!;
    const key = `${type}:${name.slice(0, 80)}`;
    const group = groups.get(key) ?? { count: 0, size: 0 };
    group.count += 1;
    group.size += nodes[i + sizeAt]!;
    groups.set(key, group);
    total += nodes[i + sizeAt]!;
    count += 1;
  }
  return { file, total, count, groups };
}

const { values, positionals } = parseArgs({
  options: { top: { type: "string", default: "25" } },
  allowPositionals: true,
});
if (positionals.length < 2) {
  console.error(
    "Usage: npx tsx scripts/soak/heap-compare.ts first.heapsnapshot [more…] last.heapsnapshot [--top 25]",
  );
  process.exit(2);
}
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const summaries = positionals.map((file) => {
  const summary = summarise(file);
  console.log(`${file}: ${mib(summary.total)} MiB in ${summary.count} objects`);
  return summary;
});
const first = summaries[0]!;
const last = summaries.at(-1)!;
const none: Group = { count: 0, size: 0 };
const rows = [...new Set([...first.groups.keys(), ...last.groups.keys()])].map((key) => {
  const a = first.groups.get(key) ?? none;
  const b = last.groups.get(key) ?? none;
  return { key, a, b, size: b.size - a.size, count: b.count - a.count };
});
const top = Number(values.top);
const print = (title: string, sorted: typeof rows) => {
  console.log(`\n${title}`);
  for (const r of sorted.slice(0, top))
    console.log(
      `${(r.size / 1024).toFixed(0).padStart(8)} KiB ${String(r.count).padStart(8)} objects  ` +
        `(${r.a.count} → ${r.b.count}, ${(r.a.size / 1024).toFixed(0)} → ${(r.b.size / 1024).toFixed(0)} KiB)  ${r.key}`,
    );
};
print(
  "grew most in self size, first to last:",
  [...rows].sort((p, q) => q.size - p.size),
);
print(
  "grew most in count, first to last:",
  [...rows].sort((p, q) => q.count - p.count),
);
