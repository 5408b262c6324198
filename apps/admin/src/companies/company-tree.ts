import type { CompanyResponse } from "@licensing/contracts";

export interface CompanyNode {
  company: CompanyResponse;
  children: CompanyNode[];
}

/**
 * The visible companies as a forest. A member sees their company and its subtree only, so the roots are
 * the companies whose parent is not in the list.
 */
export function buildTree(companies: CompanyResponse[]): CompanyNode[] {
  const nodes = new Map(companies.map((c) => [c.id, { company: c, children: [] as CompanyNode[] }]));
  const roots: CompanyNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.company.parentId ? nodes.get(node.company.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  const sort = (list: CompanyNode[]) => {
    list.sort((a, b) => a.company.name.localeCompare(b.company.name));
    list.forEach((n) => sort(n.children));
  };
  sort(roots);
  return roots;
}

/** Companies a company may move under: not itself, nor anything in its own subtree, nor archived. */
export function reparentTargets(companies: CompanyResponse[], moving: CompanyResponse) {
  return companies.filter((c) => c.status === "Active" && !c.path.includes(`/${moving.id}/`));
}
