import { Group, Pagination, Text } from "@mantine/core";

/** "about 83,000" where the server says the total is the planner's estimate (decision 0005). */
export const formatTotal = (total: number, isEstimate = false) =>
  isEstimate ? `about ${total.toLocaleString("en")}` : total.toLocaleString("en");

/** Under a paged list: how many there are (read out when it changes) and the pages. */
export function Pager({
  total,
  totalIsEstimate,
  noun,
  page,
  pageSize,
  onPage,
}: {
  total: number;
  /** The page's `totalIsEstimate`: absent on a list whose total is always a count. */
  totalIsEstimate?: boolean | undefined;
  /** Plural: "licenses". */
  noun: string;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}) {
  return (
    <Group justify="space-between" p="sm">
      <Text size="sm" aria-live="polite">
        {formatTotal(total, totalIsEstimate)} {noun}
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
