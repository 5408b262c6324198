export * from "./companies.ts";
export * from "./users.ts";
export * from "./sessions.ts";
export * from "./api-tokens.ts";
export * from "./audit.ts";
export * from "./mail.ts";
