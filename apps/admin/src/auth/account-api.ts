import { trpcClient } from "../lib/trpc.ts";

type Input<T extends (input: never) => unknown> = Parameters<T>[0];
const auth = trpcClient.auth;

/** The account calls outside React Query's cache (they set or clear the session cookie). */
export const authApi = {
  login: (input: Input<typeof auth.login.mutate>) => auth.login.mutate(input),
  loginWithCode: (input: Input<typeof auth.loginTwoFactor.mutate>) => auth.loginTwoFactor.mutate(input),
  logout: () => auth.logout.mutate(),
  previewInvite: (token: string) => auth.invitation.query({ token }),
  acceptInvite: (input: Input<typeof auth.acceptInvite.mutate>) => auth.acceptInvite.mutate(input),
  forgotPassword: (input: Input<typeof auth.forgotPassword.mutate>) => auth.forgotPassword.mutate(input),
  resetPassword: (input: Input<typeof auth.resetPassword.mutate>) => auth.resetPassword.mutate(input),
  changePassword: (input: Input<typeof auth.changePassword.mutate>) => auth.changePassword.mutate(input),
  enrollTotp: (input: Input<typeof auth.twoFactor.enroll.mutate>) => auth.twoFactor.enroll.mutate(input),
  enableTotp: (input: Input<typeof auth.twoFactor.enable.mutate>) => auth.twoFactor.enable.mutate(input),
  disableTotp: (input: Input<typeof auth.twoFactor.disable.mutate>) => auth.twoFactor.disable.mutate(input),
};
