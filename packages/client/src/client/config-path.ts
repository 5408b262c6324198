/**
 * The value at a dotted path of a config object, or null when absent. A key that itself holds dots
 * (`limits["project.size"]`) is found too: at each level the longest key that matches wins. Array
 * elements are reached by index (`features.0`).
 */
export function valueAtPath(root: unknown, path: string): unknown {
  const parts = path.split(".");
  const walk = (node: unknown, from: number): unknown => {
    if (from === parts.length) return node;
    if (typeof node !== "object" || node === null) return undefined;
    for (let to = parts.length; to > from; to--) {
      const key = parts.slice(from, to).join(".");
      if (Object.prototype.hasOwnProperty.call(node, key)) {
        const found = walk((node as Record<string, unknown>)[key], to);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return path === "" ? null : (walk(root, 0) ?? null);
}
