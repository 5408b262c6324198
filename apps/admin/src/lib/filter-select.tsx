import { Select, type SelectProps } from "@mantine/core";

/** A filter of a list: a Select that clears to "any", which is `undefined` (left out of the URL). */
export function FilterSelect({
  value,
  onChange,
  ...props
}: Omit<SelectProps, "value" | "onChange" | "clearable"> & {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
}) {
  return <Select clearable {...props} value={value ?? null} onChange={(v) => onChange(v ?? undefined)} />;
}
