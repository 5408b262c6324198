export {
  createDatabase,
  type Database,
  type DatabaseOptions,
  type Db,
  type Executor,
  type Tx,
} from "./database.ts";
export * as tables from "./schema/index.ts";
export { writeInOneRoundTrip } from "./one-round-trip.ts";
export { isDatabaseUnavailable } from "./unavailable.ts";
