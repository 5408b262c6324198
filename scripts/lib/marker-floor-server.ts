/**
 * The floor of the client benchmark: a bare Express 5 route that only parses the body and signs an
 * offline marker with node:crypto, with no database. Prints `{"port":N}` once listening.
 */
import { generateKeyPairSync, randomUUID, sign } from "node:crypto";
import express from "express";

const { privateKey } = generateKeyPairSync("ed25519");
const app = express();
app.use(express.json());
app.post("/marker", (req, res) => {
  const now = Math.floor(Date.now() / 1000);
  const body = Buffer.from(
    JSON.stringify({
      lid: randomUUID(),
      aid: req.body.activationId,
      fp: null,
      iat: now,
      exp: now + 7 * 86_400,
    }),
  ).toString("base64url");
  res.json({ heartbeatToken: `${body}.${sign(null, Buffer.from(body), privateKey).toString("base64url")}` });
});
const server = app.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
