import { readFileSync } from "node:fs";
import { EnvError, parseEnv } from "./env.ts";
import { generateMasterKey, parseMasterKey, rotateMasterKeyOf } from "./master-key-rotation.ts";

/**
 * npm run rotate-master-key -- --generate            a new random key, printed once on stdout
 * npm run rotate-master-key -- --new-key-stdin       the new key read from stdin (never from argv)
 * Stop every server first; start them again with the new key (docs/security.md).
 */
const usage =
  "usage: npm run rotate-master-key -- --generate | --new-key-stdin\n" +
  "Re-seals signing keys, TOTP secrets and webhook secrets under a new LICENSING_MASTER_KEY. Stop every server first.";

const args = process.argv.slice(2);
if (args.length !== 1 || !["--generate", "--new-key-stdin"].includes(args[0]!)) {
  console.error(usage);
  process.exit(2);
}
try {
  const env = parseEnv(process.env);
  const newKey = parseMasterKey(args[0] === "--generate" ? generateMasterKey() : readFileSync(0, "utf8"));
  // Printed before the rotation: a key that exists only after the commit could be lost with the terminal.
  if (args[0] === "--generate" && env.LICENSING_MASTER_KEY) console.log(newKey.toString("base64"));
  const outcome = await rotateMasterKeyOf(env, newKey);
  console.error(
    `Re-sealed ${outcome.signingKeys} signing keys, ${outcome.totpSecrets} TOTP secrets and ${outcome.webhookSecrets} webhook secrets under the new master key.`,
  );
  if (outcome.keyFile) {
    console.error(
      `Development key file replaced: ${outcome.keyFile} (the old key is in ${outcome.keyFile}.old).`,
    );
  } else {
    console.error("Set LICENSING_MASTER_KEY to the new key on every server before starting them again.");
  }
  process.exit(0);
} catch (error) {
  console.error(error instanceof EnvError || error instanceof Error ? error.message : String(error));
  process.exit(1);
}
