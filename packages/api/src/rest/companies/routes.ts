import {
  CompanyResponse,
  CreateCompanyRequest,
  IdParams,
  ReparentCompanyRequest,
} from "@licensing/contracts";
import { companies } from "@licensing/core";
import { z } from "zod";
import { route } from "../route.ts";

const tags = ["Companies"];
const base = "/panel/companies";

export const companyRoutes = [
  route({
    method: "get",
    path: base,
    summary: "Companies visible to the caller (all for operators, the own subtree otherwise)",
    tags,
    auth: "authenticated",
    response: z.array(CompanyResponse),
    handler: ({ deps, actor }) => companies.listCompanies(deps, actor),
  }),
  route({
    method: "get",
    path: `${base}/{id}`,
    summary: "One company (Viewer)",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: CompanyResponse,
    errors: ["company.not_found"],
    handler: ({ deps, actor, params }) => companies.getCompany(deps, actor, params.id),
  }),
  route({
    method: "get",
    path: `${base}/{id}/children`,
    summary: "Direct children of a company (Viewer)",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: z.array(CompanyResponse),
    errors: ["company.not_found"],
    handler: ({ deps, actor, params }) => companies.listChildren(deps, actor, params.id),
  }),
  route({
    method: "get",
    path: `${base}/{id}/subtree`,
    summary: "The company and all its descendants, parents first (Viewer)",
    tags,
    auth: "authenticated",
    params: IdParams,
    response: z.array(CompanyResponse),
    errors: ["company.not_found"],
    handler: ({ deps, actor, params }) => companies.listSubtree(deps, actor, params.id),
  }),
  route({
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
    handler: ({ deps, actor, body }) => companies.createCompany(deps, actor, body),
  }),
  route({
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
    handler: ({ deps, actor, params, body }) =>
      companies.reparentCompany(deps, actor, params.id, body.newParentId),
  }),
  route({
    method: "delete",
    path: `${base}/{id}`,
    summary: "Archive a company (Owner); it stays readable",
    tags,
    auth: "authenticated",
    params: IdParams,
    errors: ["company.not_found", "auth.forbidden"],
    handler: ({ deps, actor, params }) => companies.archiveCompany(deps, actor, params.id),
  }),
];
