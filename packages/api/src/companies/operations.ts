import {
  CompanyResponse,
  CreateCompanyRequest,
  IdParams,
  ReparentCompanyRequest,
} from "@licensing/contracts";
import { companies } from "@licensing/core";
import { z } from "zod";
import { operation } from "../operation/operation.ts";

const tags = ["Companies"];
const base = "/panel/companies";

export const companyOperations = {
  list: operation({
    method: "get",
    path: base,
    summary: "Companies visible to the caller",
    description:
      "Companies the caller can see: every company for operators, otherwise the caller's company and its subtree. Any authenticated caller; it changes nothing.",
    tags,
    auth: "authenticated",
    response: z.array(CompanyResponse),
    handler: ({ deps, actor }) => companies.listCompanies(deps, actor),
  }),
  get: operation({
    method: "get",
    path: `${base}/{id}`,
    summary: "One company",
    description:
      "One company. Needs Viewer on it (a role on the company or one of its ancestors); it changes nothing.",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: CompanyResponse,
    errors: ["company.not_found"],
    handler: ({ deps, actor, input }) => companies.getCompany(deps, actor, input.id),
  }),
  children: operation({
    method: "get",
    path: `${base}/{id}/children`,
    summary: "Direct children of a company",
    description: "The companies directly below a company. Needs Viewer on it; it changes nothing.",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: z.array(CompanyResponse),
    errors: ["company.not_found"],
    handler: ({ deps, actor, input }) => companies.listChildren(deps, actor, input.id),
  }),
  subtree: operation({
    method: "get",
    path: `${base}/{id}/subtree`,
    summary: "A company and all its descendants",
    description:
      "The company and every company below it, parents first. Needs Viewer on it; it changes nothing.",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: z.array(CompanyResponse),
    errors: ["company.not_found"],
    handler: ({ deps, actor, input }) => companies.listSubtree(deps, actor, input.id),
  }),
  create: operation({
    method: "post",
    path: base,
    summary: "Create a company",
    description:
      "Creates a company: a root company (no `parentId`; operators only) or a child of an Active company (Admin on the parent). The slug is unique among siblings. Recorded in the audit log.",
    tags,
    auth: "authenticated",
    body: CreateCompanyRequest,
    response: CompanyResponse,
    status: 201,
    errors: [
      "company.invalid_slug",
      "company.slug_taken",
      "company.not_active",
      "company.not_found",
      "auth.operator_required",
      "auth.forbidden",
    ],
    handler: ({ deps, actor, input }) => companies.createCompany(deps, actor, input),
  }),
  reparent: operation({
    method: "post",
    path: `${base}/{id}/reparent`,
    summary: "Move a company under another parent",
    description:
      "Moves a company and its whole subtree under another Active parent, or to the root (`newParentId: null`); never under itself or a descendant. Who sees it changes with it. Operators only; recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: IdParams,
    body: ReparentCompanyRequest,
    response: CompanyResponse,
    errors: [
      "auth.operator_required",
      "company.not_found",
      "company.invalid_parent",
      "company.not_active",
      "company.slug_taken",
    ],
    handler: ({ deps, actor, input }) => companies.reparentCompany(deps, actor, input.id, input.newParentId),
  }),
  archive: operation({
    method: "delete",
    path: `${base}/{id}`,
    summary: "Archive a company",
    description:
      "Archives a company: it stays readable but receives no new licenses or child companies; its subtree and licenses are left as they are. Archiving again changes nothing. Needs Owner on the company; recorded in the audit log.",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["company.not_found", "auth.forbidden"],
    handler: ({ deps, actor, input }) => companies.archiveCompany(deps, actor, input.id),
  }),
};
