/**
 * The API half of the backup drill (scripts/ci/backup-drill.sh), against a running server:
 *
 *   tsx scripts/ci/backup-drill.ts seed URL STATE.json     before the backup: a company, a template (its
 *                                                          signing key sealed under the master key), a
 *                                                          license, an activation and a heartbeat; what the
 *                                                          restored service must show again goes to STATE
 *   tsx scripts/ci/backup-drill.ts verify URL STATE.json   after the restore: the same operator signs in, the
 *                                                          license reads back the same, its activation's
 *                                                          heartbeat is answered with a marker signed by the
 *                                                          template's key, and a new license issued on that
 *                                                          template carries a token the same public key verifies
 *
 * The operator is BOOTSTRAP_OPERATOR_EMAIL / BOOTSTRAP_OPERATOR_PASSWORD, as the server was started with.
 */
import { createPublicKey, verify } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { argv, env, exit } from "node:process";
import { signedPost, TestClient } from "@licensing/api/testing";

interface State {
  companyId: string;
  templateId: string;
  licenseId: string;
  licenseKey: string;
  token: string;
  publicKey: string;
  activationId: string;
}

const [command, baseUrl, stateFile] = argv.slice(2);
if (!(command === "seed" || command === "verify") || !baseUrl || !stateFile) {
  console.error("usage: tsx scripts/ci/backup-drill.ts seed|verify URL STATE.json");
  exit(2);
}

function must(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`backup drill: ${message}`);
}

/**
 * Whether `signed` is signed by the raw Ed25519 key `publicKeyHex`: a license token (compact JWS, EdDSA,
 * over `header.payload`) or an offline marker (`payload.signature`, over the payload segment).
 */
function signedBy(signed: string, publicKeyHex: string) {
  const segments = signed.split(".");
  const signature = segments.pop();
  if (!signature || segments.length === 0) return false;
  const key = createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKeyHex, "hex").toString("base64url") },
    format: "jwk",
  });
  return verify(null, Buffer.from(segments.join(".")), key, Buffer.from(signature, "base64url"));
}

async function heartbeat(state: State) {
  const client = new TestClient(baseUrl!);
  const res = await signedPost<{ heartbeatToken: string }>(client, new Date(), "/api/v1/client/heartbeat", {
    licenseKey: state.licenseKey,
    activationId: state.activationId,
  });
  must(res.status === 200, `heartbeat answered ${res.status} ${res.text}`);
  must(
    signedBy(res.body.heartbeatToken, state.publicKey),
    "the heartbeat's marker is not signed by the template's key",
  );
}

const operator = new TestClient(baseUrl);
await operator.login(env.BOOTSTRAP_OPERATOR_EMAIL ?? "", env.BOOTSTRAP_OPERATOR_PASSWORD ?? "");

if (command === "seed") {
  const company = await operator.api.companies.create({
    body: { name: "Backup drill", slug: "backup-drill" },
  });
  must(company.status === 201, `company: ${company.status} ${company.text}`);
  const template = await operator.api.templates.create({
    body: { name: "Drill", productCode: "DRILL", defaultOfflineDays: 7, defaultValidityDays: 365 },
  });
  must(template.status === 201, `template: ${template.status} ${template.text}`);
  const license = await operator.api.licenses.issue({
    body: { companyId: company.body.id, templateId: template.body.id },
  });
  must(license.status === 201, `license: ${license.status} ${license.text}`);
  must(signedBy(license.body.token, license.body.publicKey), "the issued token does not verify");
  const activation = await new TestClient(baseUrl).api.client.activate({
    body: { licenseKey: license.body.licenseKey, hwFingerprint: "backup-drill-machine" },
  });
  must(activation.status === 200, `activate: ${activation.status} ${activation.text}`);
  const state: State = {
    companyId: company.body.id,
    templateId: template.body.id,
    licenseId: license.body.id,
    licenseKey: license.body.licenseKey,
    token: license.body.token,
    publicKey: license.body.publicKey,
    activationId: activation.body.activationId,
  };
  await heartbeat(state);
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  console.log(`backup drill: seeded license ${state.licenseKey} (template ${state.templateId})`);
} else {
  const state = JSON.parse(readFileSync(stateFile, "utf8")) as State;
  // The license reads back as it was issued.
  const license = await operator.api.licenses.get({ params: { id: state.licenseId } });
  must(license.status === 200, `license ${state.licenseId}: ${license.status} ${license.text}`);
  must(license.body.licenseKey === state.licenseKey, "the license came back with another key");
  const file = await operator.api.licenses.file({ params: { id: state.licenseId } });
  must(file.status === 200, `license file: ${file.status} ${file.text}`);
  must(
    file.body.token === state.token && file.body.publicKey === state.publicKey,
    "the license file changed",
  );
  // Its activation is still live, and the template's private key (opened with the master key) signs.
  await heartbeat(state);
  const fresh = await operator.api.licenses.issue({
    body: { companyId: state.companyId, templateId: state.templateId },
  });
  must(fresh.status === 201, `a new license after the restore: ${fresh.status} ${fresh.text}`);
  must(fresh.body.publicKey === state.publicKey, "the template's public key changed");
  must(signedBy(fresh.body.token, state.publicKey), "the new license's token does not verify");
  console.log(
    `backup drill: license ${state.licenseKey} read back, heartbeat signed, new license ${fresh.body.licenseKey} signed by the same key`,
  );
}
