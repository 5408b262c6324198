// Loaded with `node --import` into a server on the embedded database that the kill -9 test is about to kill:
// the first transaction that inserts into "licenses" runs that insert, prints STALLED on stderr and goes no
// further. The kill then lands inside the transaction, its rows written and its COMMIT not sent, however
// fast or slow the machine. (On PostgreSQL the test holds a lock instead, from outside the server.)
import { stderr } from "node:process";
import { PGlite } from "@electric-sql/pglite";

// kill-during-bulk.test.ts waits for this line.
const STALLED = "stall-after-licenses-insert: the transaction is stalled after its insert";

let stalled = false;
const transaction = PGlite.prototype.transaction;

PGlite.prototype.transaction = function (callback) {
  return transaction.call(this, (tx) =>
    callback(
      new Proxy(tx, {
        get(target, property) {
          const value = Reflect.get(target, property);
          if (property !== "query") return value;
          const query = async (statement, ...rest) => {
            const result = await target.query(statement, ...rest);
            if (!stalled && /^\s*insert into "licenses"/i.test(statement)) {
              stalled = true;
              stderr.write(`${STALLED}\n`);
              await new Promise(() => {});
            }
            return result;
          };
          return query;
        },
      }),
    ),
  );
};
