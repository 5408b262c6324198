import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc.ts";

/** Companies and templates by id, for names in tables and options in selects. */
export function useLookups() {
  const trpc = useTRPC();
  const companies = useQuery(trpc.companies.list.queryOptions());
  const templates = useQuery(trpc.templates.list.queryOptions({}));
  const companyName = (id: string) => companies.data?.find((c) => c.id === id)?.name ?? "…";
  const template = (id: string) => templates.data?.find((t) => t.id === id);
  return {
    companies: companies.data ?? [],
    templates: templates.data ?? [],
    companyName,
    templateName: (id: string) => template(id)?.name ?? "…",
    companyOptions: (companies.data ?? [])
      .filter((c) => c.status === "Active")
      .map((c) => ({ value: c.id, label: c.name })),
    templateOptions: (templates.data ?? [])
      .filter((t) => t.status === "Active")
      .map((t) => ({ value: t.id, label: `${t.name} (${t.productCode})` })),
  };
}
