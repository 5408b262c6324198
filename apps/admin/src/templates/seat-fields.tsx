import { LEASE_SECONDS, MAX_BORROW_DAYS } from "@licensing/contracts";
import { Group, NumberInput, Select } from "@mantine/core";
import { SEAT_MODELS, seatModelOptions, type TemplateSeatValues } from "../licenses/seat-terms.ts";

/**
 * A template's seat model, and for a floating one its lease length and borrowing (decision 0048), in a
 * `useForm` whose values hold `TemplateSeatValues`: `inputProps` is its `getInputProps`. The seat limits
 * themselves (`limits.maxSeats`, `limits.maxMachines`) are in each version's configuration defaults.
 */
export function TemplateSeatFields({
  values,
  inputProps,
  disabled = false,
}: {
  values: TemplateSeatValues;
  inputProps: (field: keyof TemplateSeatValues) => object;
  disabled?: boolean;
}) {
  return (
    <>
      <Select
        label="Seats"
        description={SEAT_MODELS[values.seatModel].means}
        allowDeselect={false}
        data={seatModelOptions}
        disabled={disabled}
        {...inputProps("seatModel")}
      />
      {values.seatModel === "floating" && (
        <Group grow align="flex-start">
          <NumberInput
            label="Lease (seconds)"
            description={`Held without a renew, ${LEASE_SECONDS.min} to ${LEASE_SECONDS.max}`}
            min={LEASE_SECONDS.min}
            max={LEASE_SECONDS.max}
            allowDecimal={false}
            clampBehavior="none"
            required
            disabled={disabled}
            {...inputProps("leaseSeconds")}
          />
          <NumberInput
            label="Borrowing (days)"
            description={`For offline work, ${MAX_BORROW_DAYS.min} (none) to ${MAX_BORROW_DAYS.max}`}
            min={MAX_BORROW_DAYS.min}
            max={MAX_BORROW_DAYS.max}
            allowDecimal={false}
            clampBehavior="none"
            required
            disabled={disabled}
            {...inputProps("maxBorrowDays")}
          />
        </Group>
      )}
    </>
  );
}
