import { SESSION_TTL_MS } from "@licensing/core";
import { parse } from "cookie";
import type { Request, Response } from "express";

export const SESSION_COOKIE = "service.auth";

export interface CookieSettings {
  /** True when PUBLIC_BASE_URL is https. */
  secure: boolean;
}

export function setSessionCookie(res: Response, sessionId: string, settings: CookieSettings) {
  res.cookie(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: "lax",
    secure: settings.secure,
    path: "/",
    maxAge: SESSION_TTL_MS,
  });
}

export function clearSessionCookie(res: Response, settings: CookieSettings) {
  res.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: "lax", secure: settings.secure, path: "/" });
}

/** The session id in a Cookie header. */
export const sessionIdFromCookieHeader = (header: string | null | undefined): string | undefined =>
  header ? parse(header)[SESSION_COOKIE] : undefined;

export const readSessionCookie = (req: Request): string | undefined =>
  sessionIdFromCookieHeader(req.headers.cookie);
