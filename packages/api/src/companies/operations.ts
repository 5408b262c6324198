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
    summary: "Companies visible to the caller (all for operators, the own subtree otherwise)",
    tags,
    auth: "authenticated",
    response: z.array(CompanyResponse),
    handler: ({ deps, actor }) => companies.listCompanies(deps, actor),
  }),
  get: operation({
    method: "get",
    path: `${base}/{id}`,
    summary: "One company (Viewer)",
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
    summary: "Direct children of a company (Viewer)",
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
    summary: "The company and all its descendants, parents first (Viewer)",
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
    summary: "Create a root company (Operator) or a child company (Admin on the parent)",
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
    summary: "Move a company and its subtree under another parent, or to the root (Operator)",
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
    summary: "Archive a company (Owner); it stays readable",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["company.not_found", "auth.forbidden"],
    handler: ({ deps, actor, input }) => companies.archiveCompany(deps, actor, input.id),
  }),
};
