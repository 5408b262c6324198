import { Table, type TableTdProps, type TableThProps } from "@mantine/core";
import { Fragment, type Key, type ReactNode } from "react";
import { Pager } from "./pager.tsx";
import { EmptyState, QueryState, type QueryLike } from "./ui.tsx";

export interface Column<T> {
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  /** Numbers: right-aligned, header included. */
  align?: "right";
  /** The column's width, set on its header (`"40%"`, `120`). */
  width?: TableThProps["w"];
  /** Props of each of its cells, e.g. a maximum width for long text. */
  td?: TableTdProps;
}

/** One page of a paged list (`licenses.search`, `operator.tenants`…). */
export interface Page<T> {
  items: readonly T[];
  total: number;
  /** Whether `total` is an estimate (decision 0005); lists that always count leave it out. */
  totalIsEstimate?: boolean;
}

/** Under a paged list: its noun ("licenses"), the page shown and how to go to another. */
export interface Paging {
  noun: string;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}

interface Layout<T> {
  /** `false` leaves a column out, e.g. `can.manageUsers && { header: "Actions", … }`. */
  columns: readonly (Column<T> | false)[];
  /** Said in place of the table when there is no row. */
  empty: ReactNode;
  /** Defaults to the row's `id`. */
  rowKey?: (row: T) => Key;
  /** Below it the table scrolls sideways rather than squeezing its columns. */
  minWidth: number;
  "aria-label"?: string;
  striped?: boolean;
  highlightOnHover?: boolean;
  /** Shown under a row across the whole table when it returns something (`id` for `aria-controls`). */
  detail?: (row: T) => { id: string; content: ReactNode } | null;
}

/** Where the rows come from: at hand, a query of a list, or a query of one page of a list (with its pager). */
type Source<T> =
  | { rows: readonly T[] }
  | { query: QueryLike<readonly T[]>; label: string }
  | { query: QueryLike<Page<T>>; label: string; paging: Paging };

export type DataTableProps<T> = Layout<T> & Source<T>;

/**
 * A list as a table: its columns, its rows, what it says when there is none, and under a paged list the
 * total and the pages. Given a query, its loading and its failure are said in words (`QueryState`).
 */
export function DataTable<T>(props: DataTableProps<T>) {
  if ("rows" in props) return <Rows {...props} rows={props.rows} />;
  const { query, label } = props;
  const paging = "paging" in props ? props.paging : null;
  return (
    <QueryState query={query as QueryLike<readonly T[] | Page<T>>} label={label}>
      {(data) =>
        isPage(data) ? (
          <>
            <Rows {...props} rows={data.items} />
            {paging && data.items.length > 0 && (
              <Pager total={data.total} totalIsEstimate={data.totalIsEstimate} {...paging} />
            )}
          </>
        ) : (
          <Rows {...props} rows={data} />
        )
      }
    </QueryState>
  );
}

const isPage = <T,>(data: readonly T[] | Page<T>): data is Page<T> => !Array.isArray(data);
const idOf = (row: unknown): Key => (row as { id: Key }).id;

function Rows<T>({
  rows,
  columns,
  empty,
  rowKey = idOf,
  minWidth,
  striped,
  highlightOnHover,
  detail,
  ...rest
}: Layout<T> & { rows: readonly T[] }) {
  if (rows.length === 0) return <EmptyState>{empty}</EmptyState>;
  const shown = columns.filter((c): c is Column<T> => c !== false);
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped={striped} highlightOnHover={highlightOnHover} aria-label={rest["aria-label"]}>
        <Table.Thead>
          <Table.Tr>
            {shown.map((c, i) => (
              <Table.Th key={i} ta={c.align} w={c.width}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => {
            const more = detail?.(row);
            return (
              <Fragment key={rowKey(row)}>
                <Table.Tr>
                  {shown.map((c, i) => (
                    <Table.Td key={i} ta={c.align} {...c.td}>
                      {c.cell(row, index)}
                    </Table.Td>
                  ))}
                </Table.Tr>
                {more && (
                  <Table.Tr id={more.id}>
                    <Table.Td colSpan={shown.length}>{more.content}</Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
