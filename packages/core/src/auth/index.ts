export { login, loginWithSecondFactor } from "./login.ts";
export { forgotPassword, resetPassword, changePassword } from "./passwords.ts";
export { previewInvitation, acceptInvitation } from "./invitations.ts";
export { enrollTotp, enableTotp, disableTotp } from "./totp.ts";
export { describeActor } from "./me.ts";
export { purgeLoginAttempts } from "./throttle.ts";
