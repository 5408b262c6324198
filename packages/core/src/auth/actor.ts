import type { CompanyRole } from "@licensing/contracts";
import type { RequestInfo } from "../deps.ts";

/** A signed-in person (session cookie). */
export interface UserActor {
  kind: "user";
  userId: string;
  email: string;
  displayName: string | null;
  isOperator: boolean;
  totpEnabled: boolean;
  companyId: string | null;
  role: CompanyRole | null;
  sessionIdHash: string;
  request: RequestInfo;
}

/** A personal access token: Admin inside its company's subtree, never an operator. */
export interface TokenActor {
  kind: "token";
  tokenId: string;
  tokenName: string;
  /** `token:<prefix>`, so audit rows name the token without its secret. */
  email: string;
  isOperator: false;
  companyId: string;
  role: "admin";
  request: RequestInfo;
}

export type Actor = UserActor | TokenActor;
