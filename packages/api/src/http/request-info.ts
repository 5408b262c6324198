import type { RequestInfo } from "@licensing/core";
import type { Request } from "express";

export const requestInfo = (req: Request): RequestInfo => ({
  ip: req.ip ?? null,
  userAgent: req.get("user-agent") ?? null,
});
