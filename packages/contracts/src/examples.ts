/**
 * Example values for the API reference (`.meta({ examples })` on the schemas), one consistent story: the
 * license of the protocol's golden vectors (packages/protocol/vectors), issued to Acme Europe from the
 * EDITOR template. A test validates every example of the OpenAPI document against its schema.
 */
export const example = {
  /** Any id where the story names none. */
  id: "9b2f4a1e-0c3d-4e5f-8a6b-7c8d9e0f1a2b",
  companyId: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
  templateId: "0f8fad5b-d9cb-469f-a165-70867728950e",
  /** The license and activation of the golden vectors. */
  licenseId: "3f1d2c4b-6a7e-4f80-9b1c-2d3e4f5a6b7c",
  activationId: "b5e0c1d2-3e4f-4a5b-8c6d-7e8f9a0b1c2d",
  licenseKey: "SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D",
  /** The license token of vectors/token.json (JWS compact, EdDSA). */
  token:
    "eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCIsImtpZCI6IjdkMGU2YzNiLTJmNjEtNGE1NS05YzFlLTJiOGYwZTZmM2ExMSJ9.eyJpc3MiOiJsaWNlbnNpbmctc2VydmljZSIsInN1YiI6IjBjNmY2YTNlLTVjNWItNGUwZi04ZDdlLTFmMmEzYjRjNWQ2ZSIsImxpZCI6IjNmMWQyYzRiLTZhN2UtNGY4MC05YjFjLTJkM2U0ZjVhNmI3YyIsImxrIjoiU1ZDLTVDWU05LThRUU1HLUswS0FWLTlNUzZLLTNTRDhEIiwidHBsIjoiRURJVE9SIiwidmVyIjoyLCJpYXQiOjE3OTAwMDAwMDAsImV4cCI6MTgyMTUzNjAwMCwidHJpYWwiOmZhbHNlLCJodyI6eyJtb2RlIjoiZmlyc3RBY3RpdmF0aW9uIiwiZnAiOiI5ZjJj4oCmbWFjaGluZSJ9LCJjZmciOnsiZmVhdHVyZXMiOlsiZXhwb3J0Iiwic3luYyJdLCJsaW1pdHMiOnsibWF4U2VhdHMiOjMsInByb2plY3Quc2l6ZSI6MTB9LCJ0aWVyIjoicHJvIiwibm90ZSI6IsO8bsOvY8O2ZMOpIOKckyJ9fQ.Y4m4FwiYs34gIp1Z1yxNzj8LcOvv5UK9ba1SRdRwGrtSzWyoBvtjhvi5V8NOQ79Ot4IlT9JrezMvGCArV-o0Dg",
  /** The offline marker of vectors/marker.json. */
  marker:
    "eyJsaWQiOiIzZjFkMmM0Yi02YTdlLTRmODAtOWIxYy0yZDNlNGY1YTZiN2MiLCJhaWQiOiJiNWUwYzFkMi0zZTRmLTRhNWItOGM2ZC03ZThmOWEwYjFjMmQiLCJmcCI6IjlmMmPigKZtYWNoaW5lIiwiaWF0IjoxNzkwMDg2NDAwLCJleHAiOjE3OTA2OTEyMDB9.-99J_4qTVegiP4q7fWXe5_-aHMKXdNlNDL4Yc6Jn3DWSCoYyTN9TZ5IBCwDj6X3vEO4S7rQGNVXJGyQX99GKAQ",
  /** The lease of vectors/lease-token.json, and its token. */
  leaseId: "d4c3b2a1-9f8e-4d7c-8b6a-5f4e3d2c1b0a",
  leaseToken:
    "eyJ0eXAiOiJsZWFzZSIsImxzaWQiOiJkNGMzYjJhMS05ZjhlLTRkN2MtOGI2YS01ZjRlM2QyYzFiMGEiLCJsaWQiOiI2YTJmOWMxZS00YjdkLTRlM2EtOGY1Yy0wZDFlMmYzYTRiNWMiLCJhaWQiOiJlMWYyYTNiNC1jNWQ2LTRlN2YtOGE5Yi0wYzFkMmUzZjRhNWIiLCJmcCI6IjVlMWbigKZ3b3Jrc3RhdGlvbiIsImlhdCI6MTc5MDA4NjQwMCwiZXhwIjoxNzkwMDg3MzAwfQ.lt_hrMKzYfsQXDgVn--m7Y7uB8gZ6N_7MxpSzCI922NZHmhpqRAyZz_TJK3yxkJ5k3Qb2N6TqJM144DybQDwBQ",
  /** vectors/key-chain.json: the root's certificate of the template's third key. */
  certificate:
    "eyJhbGciOiJFZERTQSIsInR5cCI6InNpZ25pbmcta2V5LWNlcnRpZmljYXRlIiwia2lkIjoiN2QwZTZjM2ItMmY2MS00YTU1LTljMWUtMmI4ZjBlNmYzYTExIn0.eyJraWQiOiI5ZjJhOGU1ZC00YjgzLTRjNzctOWUzYS00ZGFiMmE4ZjVjMzMiLCJwdWIiOiJmYzUxY2Q4ZTYyMThhMWEzOGRhNDdlZDAwMjMwZjA1ODA4MTZlZDEzYmEzMzAzYWM1ZGViOTExNTQ4OTA4MDI1IiwiaWF0IjoxNzkxMDAwMDAwLCJuYmYiOjE3OTEwMDAwMDB9.MNUYIr31Df2APru35DPhv7X1AbYSFGRFGaWAMTozC2zA7BHkRfIe6-24L6kgpLu81bOOf388Hxmx8aHCE4KFDw",
  /** vectors/revocation.json: the license's revocation, signed by that third key. */
  revocation:
    "eyJhbGciOiJFZERTQSIsInR5cCI6ImxpY2Vuc2UtcmV2b2NhdGlvbiIsImtpZCI6IjlmMmE4ZTVkLTRiODMtNGM3Ny05ZTNhLTRkYWIyYThmNWMzMyIsImNydCI6ImV5SmhiR2NpT2lKRlpFUlRRU0lzSW5SNWNDSTZJbk5wWjI1cGJtY3RhMlY1TFdObGNuUnBabWxqWVhSbElpd2lhMmxrSWpvaU4yUXdaVFpqTTJJdE1tWTJNUzAwWVRVMUxUbGpNV1V0TW1JNFpqQmxObVl6WVRFeEluMC5leUpyYVdRaU9pSTVaakpoT0dVMVpDMDBZamd6TFRSak56Y3RPV1V6WVMwMFpHRmlNbUU0WmpWak16TWlMQ0p3ZFdJaU9pSm1ZelV4WTJRNFpUWXlNVGhoTVdFek9HUmhORGRsWkRBd01qTXdaakExT0RBNE1UWmxaREV6WW1Fek16QXpZV00xWkdWaU9URXhOVFE0T1RBNE1ESTFJaXdpYVdGMElqb3hOemt4TURBd01EQXdMQ0p1WW1ZaU9qRTNPVEV3TURBd01EQjkuTU5VWUlyMzFEZjJBUHJ1MzVEUGh2N1gxQWJZU0ZHUkZHYVdBTVRvekMyekE3QkhrUmZJZTYtMjRMNmtncEx1ODFiT09mMzg4SHhteDhhSENFNEtGRHcifQ.eyJsaWQiOiIzZjFkMmM0Yi02YTdlLTRmODAtOWIxYy0yZDNlNGY1YTZiN2MiLCJzdGF0dXMiOiJSZXZva2VkIiwicmV2b2tlZEF0IjoxNzkxMjAwMDAwLCJpYXQiOjE3OTEyMDAwNjB9.NTveXcmaah_bTh3H6RWlSdQlr6mUWUX8BXhqZitgObE62OrhWCYHny1361OpTBBi-ndYbIAkrR5lFUinNNTgDg",
  /** vectors/revocation.json: a revocation list of two licenses. */
  revocationList:
    "eyJhbGciOiJFZERTQSIsInR5cCI6InJldm9jYXRpb24tbGlzdCIsImtpZCI6IjlmMmE4ZTVkLTRiODMtNGM3Ny05ZTNhLTRkYWIyYThmNWMzMyIsImNydCI6ImV5SmhiR2NpT2lKRlpFUlRRU0lzSW5SNWNDSTZJbk5wWjI1cGJtY3RhMlY1TFdObGNuUnBabWxqWVhSbElpd2lhMmxrSWpvaU4yUXdaVFpqTTJJdE1tWTJNUzAwWVRVMUxUbGpNV1V0TW1JNFpqQmxObVl6WVRFeEluMC5leUpyYVdRaU9pSTVaakpoT0dVMVpDMDBZamd6TFRSak56Y3RPV1V6WVMwMFpHRmlNbUU0WmpWak16TWlMQ0p3ZFdJaU9pSm1ZelV4WTJRNFpUWXlNVGhoTVdFek9HUmhORGRsWkRBd01qTXdaakExT0RBNE1UWmxaREV6WW1Fek16QXpZV00xWkdWaU9URXhOVFE0T1RBNE1ESTFJaXdpYVdGMElqb3hOemt4TURBd01EQXdMQ0p1WW1ZaU9qRTNPVEV3TURBd01EQjkuTU5VWUlyMzFEZjJBUHJ1MzVEUGh2N1gxQWJZU0ZHUkZHYVdBTVRvekMyekE3QkhrUmZJZTYtMjRMNmtncEx1ODFiT09mMzg4SHhteDhhSENFNEtGRHcifQ.eyJ0aWQiOiIwZjhmYWQ1Yi1kOWNiLTQ2OWYtYTE2NS03MDg2NzcyODk1MGUiLCJ0cGwiOiJFRElUT1IiLCJzaW5jZSI6MTc5MTAwMDAwMCwiaWF0IjoxNzkxMzAwMDAwLCJyZXZva2VkIjpbeyJsaWQiOiIxYzJkM2U0Zi01YTZiLTRjN2QtOGU5Zi0wYTFiMmMzZDRlNWYiLCJyZXZva2VkQXQiOjE3OTExMDAwMDB9LHsibGlkIjoiM2YxZDJjNGItNmE3ZS00ZjgwLTliMWMtMmQzZTRmNWE2YjdjIiwicmV2b2tlZEF0IjoxNzkxMjAwMDAwfV0sIm5leHQiOm51bGx9.ZrRL1MrYip5CTTevE1sRIRjdDt2ULCtJTaZsBcD84yXhCXm3Ae08BAO5amAvO_gkgv5rzTy2Stox6Iirnj7KBA",
  publicKeyHex: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
  fingerprint: "4f9a1c7e2b8d3f6a0c5e9b1d7a3f8c2e6b0d4a9f1c5e8b2d7a3f6c0e9b4d1a8f",
  machineName: "DESIGN-LAPTOP-07",
  config: '{"features":["export","sync"],"limits":{"maxSeats":3}}',
  configSchema:
    '{"type":"object","properties":{"features":{"type":"array","items":{"enum":["export","sync"]}},"limits":{"type":"object","properties":{"maxSeats":{"type":"integer","minimum":1}}}}}',
  defaults: '{"features":["export"],"limits":{"maxSeats":1}}',
  timestamp: "2026-09-21T14:13:20Z",
  email: "dana@example.com",
  displayName: "Dana Kim",
  password: "correct horse battery staple",
  /** A one-time token as mailed (invitation, password reset) or a sign-in ticket: 32 random bytes, base64url. */
  oneTimeToken: "q3Vb7Jx0cT9mZ2rKp5wYh8NdLs4aF1eUo6iGvC_Rk-E",
  totpCode: "492039",
  companyName: "Acme Europe",
  companySlug: "acme-europe",
  companyPath: "/1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b/7c9e6679-7425-40de-944b-e07fc1f90ae7/",
  templateName: "Editor Pro",
  productCode: "EDITOR",
  reason: "Refunded on customer request",
  apiTokenSecret: "svc_pat_Ab3x9QkZ7mW2pL8vT4nR6yH1cJ5dF0gS9eU3bX7aK2o",
  apiTokenPrefix: "svc_pat_Ab3x9Q",
  webhookUrl: "https://crm.example.com/hooks/licensing",
  /** The body of the license.issued delivery of this license, as sent (data's keys in the stored order). */
  webhookPayload:
    '{"event":"license.issued","occurredAt":"2026-09-21T14:13:20.000Z","data":{"companyId":"7c9e6679-7425-40de-944b-e07fc1f90ae7","expiresAt":"2027-09-21T14:13:20.000Z","licenseId":"3f1d2c4b-6a7e-4f80-9b1c-2d3e4f5a6b7c","licenseKey":"SVC-5CYM9-8QQMG-K0KAV-9MS6K-3SD8D","templateId":"0f8fad5b-d9cb-469f-a165-70867728950e"}}',
} as const;
