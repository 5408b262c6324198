import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The decoded text body. */
  text: string;
}

/** A real SMTP server on an ephemeral port that keeps what it receives. */
export interface SmtpReceiver {
  url: string;
  messages: ReceivedMail[];
  /**
   * Resolves with the next mail to `to` (already received or still to come), or rejects after `timeoutMs`
   * (20 s by default): a bound on a hang, never a claim about speed.
   */
  waitFor(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /**
   * Leaves every mail from now on unanswered after its data (the sender waits for the 250) until the
   * returned function is called; `held()` counts the mails waiting. Shows what does not wait for SMTP.
   */
  hold(): () => void;
  held(): number;
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: Array<() => void> = [];
  let holding: Array<() => void> | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const accept = () => {
          messages.push(
            parseMessage(
              Buffer.concat(chunks).toString("utf8"),
              session.envelope.rcptTo.map((r) => r.address),
            ),
          );
          waiters.splice(0).forEach((wake) => wake());
          callback();
        };
        if (holding) holding.push(accept);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  const take = (to: string) => {
    const found = messages.find((m) => !taken.has(m) && m.to.includes(to.toLowerCase()));
    if (found) taken.add(found);
    return found;
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(to, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = take(to);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    hold() {
      const held = (holding ??= []);
      return () => {
        if (holding === held) holding = undefined;
        held.splice(0).forEach((accept) => accept());
      };
    },
    held: () => holding?.length ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parseMessage(raw: string, to: string[]): ReceivedMail {
  const split = raw.indexOf("\r\n\r\n");
  const headers = raw.slice(0, split);
  let body = raw.slice(split + 4);
  if (/content-transfer-encoding:\s*quoted-printable/i.test(headers)) {
    body = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  } else if (/content-transfer-encoding:\s*base64/i.test(headers)) {
    body = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  }
  const subject = /^subject: (.*)$/im.exec(headers)?.[1]?.trim() ?? "";
  return { to: to.map((t) => t.toLowerCase()), subject, text: body };
}
