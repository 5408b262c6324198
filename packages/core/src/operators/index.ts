export { listOperators, inviteOperator, setOperator } from "./operators.ts";
