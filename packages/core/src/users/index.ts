export { listUsers, inviteUser, resendInvitation, deactivateUser } from "./users.ts";
export { toUserResponse } from "./user-response.ts";
