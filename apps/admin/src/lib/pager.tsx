import { EXACT_TOTAL_LIMIT } from "@licensing/contracts";
import { Group, Pagination, Text } from "@mantine/core";

/** "about 83,000" past the exact-count limit, where the total is the planner's estimate (decision 0005). */
export const formatTotal = (total: number) =>
  total > EXACT_TOTAL_LIMIT ? `about ${total.toLocaleString("en")}` : total.toLocaleString("en");

/** Under a paged list: how many there are (read out when it changes) and the pages. */
export function Pager({
  total,
  noun,
  page,
  pageSize,
  onPage,
}: {
  total: number;
  /** Plural: "licenses". */
  noun: string;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}) {
  return (
    <Group justify="space-between" p="sm">
      <Text size="sm" aria-live="polite">
        {formatTotal(total)} {noun}
      </Text>
      <Pagination
        total={Math.max(1, Math.ceil(total / pageSize))}
        value={page}
        onChange={onPage}
        getControlProps={(control) => ({ "aria-label": `${control} page` })}
      />
    </Group>
  );
}
